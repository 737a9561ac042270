"""Interop, contract first (docs/contract-first.md "The corpus"): the Python zeep client against a served WSDL.

    /usr/bin/python3 contract_zeep.py SPEC_JSON

SPEC_JSON is one JSON object:

    wsdl       the served WSDL's URL (BASE/path?wsdl)
    service, port
               the port to call through (zeep's Client.bind), or
    binding, address
               a binding's QName ({namespace}name) and the endpoint, for a WSDL
               with no wsdl:service (zeep's Client.create_service)
    operation  the operation to call
    args       its keyword arguments (an object), or its positional arguments (an
               array: a Body element of simple type is given as one value)
    headers    optional: the header blocks (zeep's _soapheaders), by element name
    addressing optional: true to send WS-Addressing headers (zeep's WsAddressingPlugin)
    wsse       optional: {"username", "password"} to send a WS-Security
               UsernameToken with a digest of the password, a Nonce, Created
               and a wsu:Timestamp (zeep.wsse.username.UsernameToken)

Values in args and headers are JSON, with four markers zeep needs as Python
objects: {"$bytes": text} is the UTF-8 bytes of text (xs:base64Binary),
{"$nil": true} is zeep.xsd.Nil (xsi:nil), {"$xml": text} is the lxml
element text parses to (xs:any content), and an object with "$type":
"{namespace}name" is a value of that type (zeep's client.get_type), which
zeep sends with xsi:type where the element's declared type is another.

The script prints one JSON line: the result (zeep's objects as JSON), the
envelopes zeep sent and received (HistoryPlugin), every URL zeep loaded (the
WSDL and what it imports), zeep's version and the warnings it gave. A call zeep
could not make is reported under "error" (a SOAP fault as its code, message and
detail). The script asserts nothing: the Node test does.

zeep reaches nothing but the WSDL's origin: the transport refuses any other
address, ignores proxy variables and .netrc, and has no cache.
"""
import json
import logging
import sys
import warnings
from urllib.parse import urlsplit

import datetime

import zeep
from lxml import etree
from zeep.exceptions import Fault
from zeep.plugins import HistoryPlugin
from zeep.wsa import WsAddressingPlugin
from zeep.wsse.username import UsernameToken
from zeep.wsse.utils import WSU

from zeep_common import LoopbackOnly, Recorder, last, plain


def python(value, client):
    """A JSON value as zeep takes it: the $bytes, $nil, $xml and $type markers made Python objects."""
    if isinstance(value, dict):
        if set(value) == {'$bytes'}:
            return value['$bytes'].encode('utf-8')
        if set(value) == {'$nil'}:
            return zeep.xsd.Nil
        if set(value) == {'$xml'}:
            return etree.fromstring(value['$xml'])
        fields = {k: python(v, client) for k, v in value.items() if k != '$type'}
        return client.get_type(value['$type'])(**fields) if '$type' in value else fields
    if isinstance(value, list):
        return [python(v, client) for v in value]
    return value


def username_token(wsse):
    """A UsernameToken with a password digest, and a Timestamp of five minutes from now."""
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    timestamp = WSU.Timestamp()
    timestamp.append(WSU.Created(now.strftime('%Y-%m-%dT%H:%M:%SZ')))
    timestamp.append(WSU.Expires((now + datetime.timedelta(minutes=5)).strftime('%Y-%m-%dT%H:%M:%SZ')))
    return UsernameToken(wsse['username'], wsse['password'], use_digest=True, timestamp_token=timestamp)


def run(spec, out):
    history = HistoryPlugin(maxlen=1)
    parts = urlsplit(spec['wsdl'])
    transport = LoopbackOnly((parts.scheme, parts.netloc))
    out['loaded'] = transport.loaded
    plugins = [WsAddressingPlugin(), history] if spec.get('addressing') else [history]
    wsse = username_token(spec['wsse']) if 'wsse' in spec else None
    client = zeep.Client(spec['wsdl'], transport=transport, plugins=plugins, wsse=wsse)
    if 'binding' in spec:
        service = client.create_service(spec['binding'], spec['address'])
    else:
        service = client.bind(spec['service'], spec['port'])
    args = python(spec.get('args', {}), client)
    positional, kwargs = (args, {}) if isinstance(args, list) else ([], args)
    if 'headers' in spec:
        kwargs['_soapheaders'] = python(spec['headers'], client)
    try:
        out['result'] = plain(getattr(service, spec['operation'])(*positional, **kwargs))
    except Fault as fault:
        out['error'] = 'Fault: %s' % fault.message
        out['fault'] = {
            'code': fault.code,
            'message': fault.message,
            'detail': None if fault.detail is None else etree.tostring(fault.detail, encoding='unicode')
        }
    except Exception as exc:  # noqa: BLE001 - reported, the test fails on it
        out['error'] = '%s: %s' % (type(exc).__name__, exc)
    out['sent'] = last(history, 'sent')
    out['received'] = last(history, 'received')


def main():
    spec = json.loads(sys.argv[1])
    out = {}
    seen = []
    logging.getLogger('zeep').addHandler(Recorder(seen))
    logging.getLogger('zeep').setLevel(logging.WARNING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            run(spec, out)
        except Exception as exc:  # noqa: BLE001 - e.g. the WSDL refused
            out['error'] = '%s: %s' % (type(exc).__name__, exc)
    seen.extend('%s: %s' % (w.category.__name__, w.message) for w in caught)
    out['warnings'] = seen
    out['zeep'] = zeep.__version__
    print(json.dumps(out, ensure_ascii=True))


if __name__ == '__main__':
    main()
