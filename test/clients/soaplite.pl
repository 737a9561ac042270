#!/usr/bin/perl
# Interop (docs/wsdl.md "Tested clients"): Perl SOAP::Lite, without a WSDL, against the demo Calculator.
#
# argv: base URL (http://127.0.0.1:PORT), SOAP version (1.1 or 1.2).
# Calls Add(2, 3), Echo(TEXT) and Divide(1, 0), and prints ONE JSON line with
# what it got back. It only reports: every outcome, including a transport
# error, ends up in that line, together with the request SOAP::Lite sent.
#
# Document/literal by hand: the Body child must be
#   <Add xmlns="urn:example:calc"><a>2</a><b>3</b></Add>
# with a and b in urn:example:calc too (the WSDL's elementFormDefault is
# qualified). default_ns() gives exactly that: the method element declares the
# default namespace and the unprefixed parameters inherit it. ns() does not:
# it prefixes the method (namesp1:Add) and leaves a and b in no namespace, and
# ns() together with SOAP::Data->uri() on the parameters makes SOAP::Lite 1.27
# drop the declaration of the method's prefix (an ill-formed envelope).
use strict;
use warnings;
use utf8;
use JSON::PP ();
use SOAP::Lite;

use constant CALC_NS => 'urn:example:calc';
use constant TEXT => "h\x{e9}llo \x{2713} <&> \x{1D11E}";

my ($base, $version) = @ARGV;
my %report = (
    soaplite => $SOAP::Lite::VERSION,
    perl     => sprintf('%vd', $^V),
    version  => $version,
    warnings => [],
);

sub emit {
    print JSON::PP->new->utf8->canonical->encode(\%report), "\n";
    exit 0;
}

if (!defined $base || !defined $version || ($version ne '1.1' && $version ne '1.2')) {
    $report{error} = 'usage: perl soaplite.pl BASE_URL 1.1|1.2';
    emit();
}

local $SIG{__WARN__} = sub { push @{ $report{warnings} }, "$_[0]" };

# Before new(): soapversion() sets the envelope namespace and prefixes
# globally, and a serializer made earlier keeps the 1.1 ones.
SOAP::Lite->soapversion($version);
my $client = SOAP::Lite->new;
# SOAP 1.2 Part 1 5.1.1: env:encodingStyle may not appear on the Envelope, yet
# SOAP::Lite puts the SOAP-encoding one there in both versions (1.1 allows it).
# These calls are literal, so a 1.2 envelope goes without it.
$client->serializer->encodingStyle('') if $version eq '1.2';
$client->proxy("$base/calculator", timeout => 30);
$client->default_ns(CALC_NS);
# The WSDL's soapAction: <namespace>/<operation>, not SOAP::Lite's "uri#method".
$client->on_action(sub { join '/', @_ });
# Never die: a SOAP fault comes back as the SOAP::SOM, anything else as its text.
$client->on_fault(sub { my ($soap, $res) = @_; return ref $res ? $res : SOAP::Data->name(transportError => "$res") });

# The request as it went on the wire, and the answer's status.
sub exchange {
    my $response = $client->transport->http_response;
    return {} if !defined $response;
    my $request = $response->request;
    my $content = defined $request ? $request->content : '';
    utf8::decode($content);
    return {
        request     => $content,
        contentType => defined $request ? scalar $request->header('Content-Type') : undef,
        soapAction  => defined $request ? scalar $request->header('SOAPAction') : undef,
        status      => $response->code,
    };
}

# The fault as SOAP::Lite surfaces it: SOAP::SOM's faultcode and faultstring
# read the 1.1 elements only, so a 1.2 fault's Code/Value and Reason/Text are
# read by path as well.
sub fault {
    my ($som) = @_;
    return {
        faultcode   => scalar $som->faultcode,
        faultstring => scalar $som->faultstring,
        code        => scalar $som->valueof('/Envelope/Body/Fault/Code/Value'),
        reason      => scalar $som->valueof('/Envelope/Body/Fault/Reason/Text'),
    };
}

# Calls one operation; returns the SOAP::SOM, or undef with the problem recorded under $key.
sub invoke {
    my ($key, $method, @params) = @_;
    my $som = eval { $client->call($method, @params) };
    my $trace = exchange();
    $report{"${key}Exchange"} = $trace;
    if (!defined $som || !UNIVERSAL::isa($som, 'SOAP::SOM')) {
        $report{"${key}Error"} = defined $som ? (UNIVERSAL::isa($som, 'SOAP::Data') ? $som->value : "$som") : ($@ || 'no answer');
        return undef;
    }
    return $som;
}

my $som = invoke('add', 'Add', SOAP::Data->name('a')->value(2), SOAP::Data->name('b')->value(3));
if ($som) {
    if ($som->fault) { $report{addError} = fault($som) }
    else { $report{add} = 0 + $som->valueof('//AddResponse/result') }
}

# Typed by hand: SOAP::Lite's autotyping sends any non-ASCII string as xsd:base64Binary.
$som = invoke('echo', 'Echo', SOAP::Data->name('text')->type('string')->value(TEXT));
if ($som) {
    if ($som->fault) { $report{echoError} = fault($som) }
    else { $report{echo} = $som->valueof('//EchoResponse/text') }
}

$som = invoke('divide', 'Divide', SOAP::Data->name('a')->value(1), SOAP::Data->name('b')->value(0));
if ($som) {
    if ($som->fault) { $report{divide} = fault($som) }
    else { $report{divide} = { returned => $som->valueof('//DivideResponse/result') } }
}

emit();
