"""Interop (docs/security.md "WS-Security"): zeep's WS-Security UsernameToken against the demo's /secure/calculator.

    /usr/bin/python3 zeep_wsse.py BASE_URL 11|12

zeep reads BASE_URL/secure/calculator?wsdl, binds the SOAP 1.1 or 1.2 port
and calls Add(2, 3) with zeep.wsse.username.UsernameToken: as a digest with a
wsu:Timestamp, as text, then with a wrong password, an unknown user, a Created
an hour old, a Created an hour ahead, and the same Nonce and Created twice.
It prints one JSON line with what zeep got back for each (a result, or the
fault's code and message); it asserts nothing: the Node test does.
"""
import datetime
import json
import logging
import sys
import warnings
from urllib.parse import urlsplit

import zeep
from zeep.exceptions import Fault
from zeep.wsse.username import UsernameToken
from zeep.wsse.utils import WSU

from zeep_common import LoopbackOnly, Recorder


def timestamp(created):
    token = WSU.Timestamp()
    token.append(WSU.Created(created.strftime('%Y-%m-%dT%H:%M:%SZ')))
    token.append(WSU.Expires((created + datetime.timedelta(minutes=5)).strftime('%Y-%m-%dT%H:%M:%SZ')))
    return token


def main(base, version):
    found = []
    logging.getLogger('zeep').addHandler(Recorder(found))
    parts = urlsplit(base)
    transport = LoopbackOnly((parts.scheme, parts.netloc))
    port = 'CalculatorSoap11' if version == '11' else 'CalculatorSoap12'
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    hour = datetime.timedelta(hours=1)

    def add(wsse):
        client = zeep.Client('%s/secure/calculator?wsdl' % base.rstrip('/'), transport=transport, wsse=wsse)
        service = client.bind('Calculator', port)
        try:
            return {'result': service.Add(a=2, b=3)}
        except Fault as fault:
            return {'code': fault.code, 'message': fault.message, 'subcodes': [str(s) for s in (fault.subcodes or [])]}

    out = {'zeep': zeep.__version__}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        out['digest'] = add(UsernameToken('demo', 'demo', use_digest=True, timestamp_token=timestamp(now)))
        out['text'] = add(UsernameToken('demo', 'demo'))
        out['wrong'] = add(UsernameToken('demo', 'wrong', use_digest=True))
        out['unknown'] = add(UsernameToken('mallory', 'demo', use_digest=True))
        out['expired'] = add(UsernameToken('demo', 'demo', use_digest=True, created=now - hour))
        out['future'] = add(UsernameToken('demo', 'demo', use_digest=True, created=now + hour))
        fixed = dict(use_digest=True, nonce='a nonce, twice', created=now)
        out['first'] = add(UsernameToken('demo', 'demo', **fixed))
        out['replayed'] = add(UsernameToken('demo', 'demo', **fixed))
        out['missing'] = add(None)
    out['warnings'] = found + [str(w.message) for w in caught]
    print(json.dumps(out))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
