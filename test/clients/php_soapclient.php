<?php
/**
 * Interop (docs/wsdl.md "Tested clients"): PHP SoapClient in WSDL mode against the demo Calculator.
 *
 * argv: base URL (http://127.0.0.1:PORT), SOAP version (1.1 or 1.2).
 * Calls Add(2, 3), Echo(TEXT) and Divide(1, 0), and prints ONE JSON line with
 * what it got back. It only reports: every outcome, including an unexpected
 * exception, ends up in that line, together with the request PHP sent.
 */
declare(strict_types=1);

const TEXT = 'héllo ✓ <&> 𝄞';

$base = $argv[1] ?? '';
$version = $argv[2] ?? '';
$report = [
    'php' => PHP_VERSION,
    'libxml' => LIBXML_DOTTED_VERSION,
    'version' => $version,
    'warnings' => [],
];

function emit(array $report): void
{
    echo json_encode($report, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
    exit(0);
}

if ($base === '' || ($version !== '1.1' && $version !== '1.2')) {
    $report['error'] = 'usage: php php_soapclient.php BASE_URL 1.1|1.2';
    emit($report);
}

// Whatever PHP says while reading the WSDL or calling (notices, warnings, deprecations).
set_error_handler(function (int $errno, string $errstr) use (&$report): bool {
    $report['warnings'][] = $errstr;
    return true;
});

/** The fault as PHP surfaces it, and the exchange that produced it. */
function fault(Throwable $e, ?SoapClient $client): array
{
    $out = ['class' => get_class($e), 'message' => $e->getMessage()];
    if ($e instanceof SoapFault) {
        $out['faultcode'] = $e->faultcode ?? null;
        $out['faultcodens'] = $e->faultcodens ?? null;
        $out['faultstring'] = $e->faultstring ?? null;
    }
    if ($client !== null) {
        $out['request'] = $client->__getLastRequest();
        $out['response'] = $client->__getLastResponse();
    }
    return $out;
}

try {
    $client = new SoapClient($base . '/calculator?wsdl', [
        'soap_version' => $version === '1.2' ? SOAP_1_2 : SOAP_1_1,
        'trace' => true,
        'exceptions' => true,
        'cache_wsdl' => WSDL_CACHE_NONE,
    ]);
} catch (Throwable $e) {
    $report['wsdl'] = fault($e, null);
    emit($report);
}
$report['functions'] = $client->__getFunctions();
$report['types'] = $client->__getTypes();

try {
    $r = $client->Add(['a' => 2, 'b' => 3]);
    $report['add'] = $r->result ?? null;
    $report['addRequest'] = $client->__getLastRequest();
} catch (Throwable $e) {
    $report['addError'] = fault($e, $client);
}

try {
    $r = $client->Echo(['text' => TEXT]);
    $report['echo'] = $r->text ?? null;
    $report['echoRequest'] = $client->__getLastRequest();
} catch (Throwable $e) {
    $report['echoError'] = fault($e, $client);
}

try {
    $r = $client->Divide(['a' => 1, 'b' => 0]);
    $report['divide'] = ['returned' => $r, 'request' => $client->__getLastRequest(), 'response' => $client->__getLastResponse()];
} catch (Throwable $e) {
    $report['divide'] = fault($e, $client);
}

emit($report);
