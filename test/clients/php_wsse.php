<?php
/**
 * Interop (docs/security.md "WS-Security"): PHP SoapClient (WSDL mode) against
 * the demo's /secure/calculator, with a wsse:Security header built by hand
 * (PHP has no WS-Security of its own).
 *
 * argv: base URL (http://127.0.0.1:PORT), SOAP version (1.1 or 1.2).
 * Calls Add(2, 3) with a text password, with a digest (Nonce, Created) and a
 * wsu:Timestamp, then with a Created an hour old, with a Nonce that is not
 * Base64, and one header sent twice (a replay), and prints ONE JSON line
 * with what it got back. It only reports: the Node test asserts.
 */
declare(strict_types=1);

const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';
const BASE64 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';

$base = $argv[1] ?? '';
$version = $argv[2] ?? '';
$report = ['php' => PHP_VERSION, 'version' => $version, 'warnings' => []];

function emit(array $report): void
{
    echo json_encode($report, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
    exit(0);
}

set_error_handler(function (int $errno, string $errstr) use (&$report): bool {
    $report['warnings'][] = $errstr;
    return true;
});

/** The Security header block: a UsernameToken, as text or digest, and optionally a Timestamp. */
function security(bool $digest, int $age, bool $timestamp, ?string $nonceText = null): SoapHeader
{
    $created = gmdate('Y-m-d\TH:i:s\Z', time() - $age);
    $nonce = random_bytes(16);
    $password = $digest ? base64_encode(sha1($nonce . $created . 'demo', true)) : 'demo';
    $type = PROFILE . ($digest ? '#PasswordDigest' : '#PasswordText');
    $xml = '<wsse:Security xmlns:wsse="' . WSSE . '" xmlns:wsu="' . WSU . '">'
        . ($timestamp ? '<wsu:Timestamp><wsu:Created>' . $created . '</wsu:Created><wsu:Expires>' . gmdate('Y-m-d\TH:i:s\Z', time() - $age + 300) . '</wsu:Expires></wsu:Timestamp>' : '')
        . '<wsse:UsernameToken><wsse:Username>demo</wsse:Username>'
        . '<wsse:Password Type="' . $type . '">' . $password . '</wsse:Password>'
        . '<wsse:Nonce EncodingType="' . BASE64 . '">' . ($nonceText ?? base64_encode($nonce)) . '</wsse:Nonce>'
        . '<wsu:Created>' . $created . '</wsu:Created></wsse:UsernameToken></wsse:Security>';
    return new SoapHeader(WSSE, 'Security', new SoapVar($xml, XSD_ANYXML));
}

try {
    $client = new SoapClient($base . '/secure/calculator?wsdl', [
        'soap_version' => $version === '1.2' ? SOAP_1_2 : SOAP_1_1,
        'trace' => true,
        'exceptions' => true,
        'cache_wsdl' => WSDL_CACHE_NONE,
    ]);
} catch (Throwable $e) {
    $report['error'] = $e->getMessage();
    emit($report);
}

$twice = security(true, 0, false);
$headers = [
    'text' => security(false, 0, false),
    'digest' => security(true, 0, true),
    'stale' => security(true, 3600, true),
    'malformed' => security(true, 0, false, 'not Base64!'),
    'first' => $twice,
    'replayed' => $twice,
];
foreach ($headers as $name => $header) {
    try {
        $r = $client->__soapCall('Add', [['a' => 2, 'b' => 3]], null, $header);
        $report[$name] = $r->result ?? null;
    } catch (SoapFault $e) {
        $report[$name] = ['faultcode' => $e->faultcode ?? null, 'faultcodens' => $e->faultcodens ?? null, 'faultstring' => $e->faultstring ?? null, 'request' => $client->__getLastRequest()];
    } catch (Throwable $e) {
        $report[$name] = ['error' => $e->getMessage()];
    }
}
emit($report);
