"""Interop (docs/wsdl.md "Tested clients"): the Python zeep client against the demo, from its WSDL.

    /usr/bin/python3 zeep_client.py BASE_URL SCENARIO

SCENARIO is calc11, calc12, orders11, orders12, gzip11, gzip12, deflate12, files11, files12,
mtomfiles11 or mtomfiles12 (Files at /mtom/files, every reply MTOM). zeep reads
BASE_URL/calculator?wsdl, BASE_URL/orders?wsdl or the Files WSDL, binds the SOAP 1.1 or 1.2 port and calls the
operations (gzip and deflate: the calculator's, each request body compressed by the transport); the script prints one JSON line with what zeep got back (it
asserts nothing: the Node test does). A call zeep could not make is reported
as {"error": ..., "sent": ..., "received": ...}, the last envelopes from
zeep's HistoryPlugin. Warnings zeep gives (Python warnings, or its loggers at
WARNING) are reported under "warnings".

zeep reaches nothing but BASE_URL's origin: the transport refuses any other
address, ignores proxy variables and .netrc, and has no cache.
"""
import datetime
import gzip
import hashlib
import os
import json
import logging
import sys
import warnings
import zlib
from urllib.parse import urlsplit

import zeep
from lxml import etree
from zeep.exceptions import Fault
from zeep.plugins import HistoryPlugin

from zeep_common import LoopbackOnly, Recorder, last, plain

ECHO = 'h\u00e9llo \u2713 <&> \U0001D11E'


class Compressing(LoopbackOnly):
    """Sends each request body compressed (gzip, or deflate in the zlib format), with its Content-Encoding."""

    def __init__(self, origin, coding):
        super().__init__(origin)
        self.coding = coding
        self.sent = []

    def post(self, address, message, headers):
        body = gzip.compress(message) if self.coding == 'gzip' else zlib.compress(message)
        self.sent.append({'coding': self.coding, 'compressed': body != message and len(body) > 0})
        return super().post(address, body, dict(headers, **{'Content-Encoding': self.coding}))


class Client:
    def __init__(self, base, path, service, port, coding=None):
        self.history = HistoryPlugin(maxlen=1)
        parts = urlsplit(base)
        origin = (parts.scheme, parts.netloc)
        self.transport = LoopbackOnly(origin) if coding is None else Compressing(origin, coding)
        self.zeep = zeep.Client(
            '%s/%s?wsdl' % (base.rstrip('/'), path),
            transport=self.transport,
            plugins=[self.history]
        )
        self.service = self.zeep.bind(service, port)

    def failure(self, exc):
        return {
            'error': '%s: %s' % (type(exc).__name__, exc),
            'sent': last(self.history, 'sent'),
            'received': last(self.history, 'received')
        }

    def invoke(self, operation, kwargs):
        self.history._buffer.clear()  # so that a failure shows this call's envelopes only
        return getattr(self.service, operation)(**kwargs)

    def call(self, operation, **kwargs):
        """The reply, as JSON; or, if zeep raised anything (a SOAP fault too), the failure."""
        try:
            return plain(self.invoke(operation, kwargs))
        except Exception as exc:  # noqa: BLE001 - reported, the test fails on it
            return self.failure(exc)

    def fault(self, operation, parse, **kwargs):
        """The SOAP fault zeep raised, as JSON, its detail read by `parse`; or the failure."""
        try:
            reply = self.invoke(operation, kwargs)
        except Fault as fault:
            detail = fault.detail
            out = {
                'code': fault.code,
                'message': fault.message,
                'actor': fault.actor,
                'subcodes': [q.text for q in fault.subcodes or []],
                'detailChildren': [] if detail is None else [child.tag for child in detail]
            }
            if parse is not None:
                try:
                    out['detail'] = parse(detail)
                except Exception as exc:  # noqa: BLE001
                    out['detail'] = self.failure(exc)
            return out
        except Exception as exc:  # noqa: BLE001
            return self.failure(exc)
        return {'error': 'no fault raised', 'reply': plain(reply)}


def calculator(base, version):
    client = Client(base, 'calculator', 'Calculator', 'CalculatorSoap' + version)
    return {
        'add': client.call('Add', a=2, b=3),
        'echo': client.call('Echo', text=ECHO),
        'divide': client.fault('Divide', None, a=1, b=0)
    }


def compressed(base, version, coding):
    client = Client(base, 'calculator', 'Calculator', 'CalculatorSoap' + version, coding)
    out = {'add': client.call('Add', a=2, b=3), 'echo': client.call('Echo', text=ECHO)}
    out['sent'] = client.transport.sent
    return out


def orders(base, version):
    client = Client(base, 'orders', 'Orders', 'OrdersSoap' + version)
    not_found = client.zeep.get_element('{urn:example:orders}OrderNotFound')

    def order_not_found(detail):
        """The declared fault's detail entry, read by its element in the WSDL."""
        entries = [child for child in detail if child.tag == not_found.qname.text]
        if len(entries) != 1:
            raise ValueError('%d OrderNotFound entries in %s' % (len(entries), etree.tostring(detail, encoding='unicode')))
        return plain(not_found.parse(entries[0], client.zeep.wsdl.types))

    placed = client.call(
        'PlaceOrder',
        customer={'name': 'Ada L\u00f6velace', 'email': 'ada@example.org', 'vip': True},
        line=[
            {'sku': 'AB-12', 'quantity': 2, 'unitPrice': 9.5, 'note': 'gift wrap'},
            {'sku': 'ZZ-9', 'quantity': 1, 'unitPrice': 0.25, 'note': zeep.xsd.Nil}
        ],
        priority='high',
        deliveryDate=datetime.date(2030, 1, 15),
        tags={'tags': ['red', 'fragile']},
        _soapheaders={'Tenant': {'id': 'acme'}}
    )
    place_sent = last(client.history, 'sent')
    order_id = placed.get('orderId') if isinstance(placed, dict) else None
    out = {'placeOrder': placed, 'placeOrderSent': place_sent}
    if order_id is None:
        return out
    out['getOrder'] = client.call('GetOrder', orderId=order_id)
    out['unknown'] = client.fault('GetOrder', order_not_found, orderId='nope-0')
    out['cancel'] = client.call('CancelOrder', orderId=order_id)
    out['afterCancel'] = client.fault('GetOrder', order_not_found, orderId=order_id)
    return out


def summary(data):
    return {'size': len(data), 'sha256': hashlib.sha256(data).hexdigest()}


def files(base, version, path='files'):
    """Upload and Download: zeep sends the bytes inline, as base64 (it writes no MTOM), and reads a reply either way."""
    client = Client(base, path, 'Files', 'FilesSoap' + version)
    # zeep strips CR and LF from both ends of a binary part (zeep/wsdl/attachments.py, Attachment.content):
    # the bytes begin with none, as they end with 255 (docs/binary.md "Tested clients").
    data = b'\x00' + os.urandom(200000) + bytes(range(256))
    name = 'zeep-%s.bin' % version
    out = {'sent': summary(data), 'upload': client.call('Upload', name=name, content=data)}
    try:
        back = client.invoke('Download', {'name': name})
        out['download'] = dict(summary(back), same=back == data)
    except Exception as exc:  # noqa: BLE001 - reported, the test fails on it
        out['download'] = client.failure(exc)
    file_not_found = client.zeep.get_element('{urn:example:files}FileNotFound')
    out['unknown'] = client.fault('Download', lambda detail: plain(file_not_found.parse(detail[0], client.zeep.wsdl.types)), name='never.bin')
    return out


def main():
    base, scenario = sys.argv[1], sys.argv[2]
    scenarios = {
        'calc11': (calculator, '11'), 'calc12': (calculator, '12'),
        'orders11': (orders, '11'), 'orders12': (orders, '12'),
        'gzip11': (lambda base, v: compressed(base, v, 'gzip'), '11'),
        'gzip12': (lambda base, v: compressed(base, v, 'gzip'), '12'),
        'deflate12': (lambda base, v: compressed(base, v, 'deflate'), '12'),
        'files11': (files, '11'), 'files12': (files, '12'),
        'mtomfiles11': (lambda base, v: files(base, v, 'mtom/files'), '11'),
        'mtomfiles12': (lambda base, v: files(base, v, 'mtom/files'), '12')
    }
    run, version = scenarios[scenario]
    seen = []
    logging.getLogger('zeep').addHandler(Recorder(seen))
    logging.getLogger('zeep').setLevel(logging.WARNING)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            out = run(base, version)
        except Exception as exc:  # noqa: BLE001 - e.g. the WSDL refused
            out = {'error': '%s: %s' % (type(exc).__name__, exc)}
    seen.extend('%s: %s' % (w.category.__name__, w.message) for w in caught)
    out['warnings'] = seen
    out['zeep'] = zeep.__version__
    print(json.dumps(out, ensure_ascii=True))


if __name__ == '__main__':
    main()
