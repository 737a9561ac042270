"""Interop (issue 7, contract first): the Python zeep client against a served WSDL.

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

Values in args and headers are JSON, with three markers zeep needs as Python
objects: {"$bytes": text} is the UTF-8 bytes of text (xs:base64Binary),
{"$nil": true} is zeep.xsd.Nil (xsi:nil) and {"$xml": text} is the lxml
element text parses to (xs:any content).

The script prints one JSON line: the result (zeep's objects as JSON), the
envelopes zeep sent and received (HistoryPlugin), every URL zeep loaded (the
WSDL and what it imports), zeep's version and the warnings it gave. A call zeep
could not make is reported under "error" (a SOAP fault as its code, message and
detail). The script asserts nothing: the Node test does.

zeep reaches nothing but the WSDL's origin: the transport refuses any other
address, ignores proxy variables and .netrc, and has no cache.
"""
import base64
import datetime
import decimal
import json
import logging
import sys
import warnings
from urllib.parse import urlsplit

import zeep
from lxml import etree
from zeep.exceptions import Fault
from zeep.helpers import serialize_object
from zeep.plugins import HistoryPlugin
from zeep.transports import Transport


class LoopbackOnly(Transport):
    """A transport that reaches only the origin of the WSDL's URL, and notes what it loads."""

    def __init__(self, origin):
        super().__init__(cache=None, timeout=30, operation_timeout=30)
        self.origin = origin
        self.loaded = []
        self.session.trust_env = False  # no proxy variables, no .netrc

    def check(self, url):
        parts = urlsplit(url)
        if (parts.scheme, parts.netloc) != self.origin:
            raise RuntimeError('zeep tried to reach %s, outside %s://%s' % ((url,) + self.origin))

    def load(self, url):
        self.check(url)
        self.loaded.append(url)
        return super().load(url)

    def get(self, address, params, headers):
        self.check(address)
        return super().get(address, params, headers)

    def post(self, address, message, headers):
        self.check(address)
        return super().post(address, message, headers)


class Recorder(logging.Handler):
    def __init__(self, into):
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record):
        self.into.append('%s: %s' % (record.name, record.getMessage()))


def python(value):
    """A JSON value as zeep takes it: the $bytes, $nil and $xml markers made Python objects."""
    if isinstance(value, dict):
        if set(value) == {'$bytes'}:
            return value['$bytes'].encode('utf-8')
        if set(value) == {'$nil'}:
            return zeep.xsd.Nil
        if set(value) == {'$xml'}:
            return etree.fromstring(value['$xml'])
        return {k: python(v) for k, v in value.items()}
    if isinstance(value, list):
        return [python(v) for v in value]
    return value


def plain(value):
    """zeep's objects as JSON: dicts, lists, ISO dates, decimals as strings, bytes as {"$bytes": text}, elements as XML text."""
    value = serialize_object(value, dict)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, bytes):
        return {'$bytes': value.decode('utf-8')}
    if isinstance(value, etree._Element):
        return etree.tostring(value, encoding='unicode')
    return value


def envelope(history, key):
    """The last envelope `key` ('sent' or 'received') HistoryPlugin kept, as text, or None."""
    entry = history._buffer[-1] if history._buffer else None  # last_sent fails on an empty history
    if entry is None or entry[key] is None:
        return None
    return etree.tostring(entry[key]['envelope'], encoding='unicode')


def run(spec, out):
    history = HistoryPlugin(maxlen=1)
    parts = urlsplit(spec['wsdl'])
    transport = LoopbackOnly((parts.scheme, parts.netloc))
    out['loaded'] = transport.loaded
    client = zeep.Client(spec['wsdl'], transport=transport, plugins=[history])
    if 'binding' in spec:
        service = client.create_service(spec['binding'], spec['address'])
    else:
        service = client.bind(spec['service'], spec['port'])
    args = python(spec.get('args', {}))
    positional, kwargs = (args, {}) if isinstance(args, list) else ([], args)
    if 'headers' in spec:
        kwargs['_soapheaders'] = python(spec['headers'])
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
    out['sent'] = envelope(history, 'sent')
    out['received'] = envelope(history, 'received')


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
