"""Interop (docs/security.md "X.509 signatures"): zeep's BinarySignature against the demo's /secure/signed-calculator.

    /usr/bin/python3 zeep_x509.py BASE_URL 11|12 X509_FOLDER

zeep reads BASE_URL/secure/signed-calculator?wsdl, binds the SOAP 1.1 or 1.2
port and calls Add(2, 3) with zeep's wsse list (zeep.wsse.compose.Compose):
a wsu:Timestamp, then zeep.wsse.signature.BinarySignature with the demo
client's key and certificate (test-client.key/.pem in X509_FOLDER; RSA-SHA256
and SHA-256 digests: zeep's default is SHA-1). zeep verifies the reply's
signature with the server's certificate (test-server.pem: zeep verifies with
one certificate it is given, it has no trust store; this script checks that
the reply's token is that certificate and that it chains to test-ca.pem, and
names what the reply's references cover). Then the same call with the Body
changed after signing, and without any signature. It prints one JSON line
with what zeep got back for each (a result, or the fault's code and
message); it asserts nothing: the Node test does.
"""
import datetime
import json
import logging
import subprocess
import sys
import warnings
from urllib.parse import urlsplit

import xmlsec
import zeep
from lxml import etree
from zeep import ns
from zeep.exceptions import Fault, SignatureVerificationFailed
from zeep.wsse.compose import Compose
from zeep.wsse.signature import BinarySignature, verify_envelope
from zeep.wsse.utils import WSU, get_security_header

from zeep_common import LoopbackOnly, Recorder

X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3'


class Timestamp:
    """A wsu:Timestamp (Created now, Expires in 5 minutes) in the wsse:Security header, before the signature is made."""

    def apply(self, envelope, headers):
        now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
        get_security_header(envelope).append(WSU.Timestamp(
            WSU.Created(now.isoformat() + 'Z'), WSU.Expires((now + datetime.timedelta(minutes=5)).isoformat() + 'Z')))
        return envelope, headers

    def verify(self, envelope):
        return envelope


class Tamper:
    """Changes the signed Body (b becomes 4) after the signature is made."""

    def apply(self, envelope, headers):
        for b in envelope.iter('{urn:example:calc}b'):
            b.text = '4'
        return envelope, headers

    def verify(self, envelope):
        return envelope


class ClientSignature(BinarySignature):
    """BinarySignature with the client's key; the reply verified with the server's certificate (see above)."""

    def __init__(self, folder, seen):
        super().__init__(folder + '/test-client.key', folder + '/test-client.pem',
                         signature_method=xmlsec.Transform.RSA_SHA256, digest_method=xmlsec.Transform.SHA256)
        self.folder = folder
        self.seen = seen

    def verify(self, envelope):
        # zeep's own check: every ds:Reference and the SignatureValue, with the server's certificate.
        verify_envelope(envelope, self.folder + '/test-server.pem')
        self.seen['verified'] = True
        security = envelope.find('.//{%s}Security' % ns.WSSE)
        token = security.find('{%s}BinarySecurityToken' % ns.WSSE)
        with open(self.folder + '/test-server.pem') as f:
            pem = f.read()
        self.seen['token'] = 'the server certificate' if token is not None and token.get('ValueType') == X509V3 and \
            ''.join(token.text.split()) == ''.join(pem.split('-----')[2].split()) else 'another'
        chain = subprocess.run(['openssl', 'verify', '-CAfile', self.folder + '/test-ca.pem', self.folder + '/test-server.pem'],
                               capture_output=True, text=True, timeout=30)
        self.seen['chain'] = chain.returncode == 0
        ids = {}
        for element in envelope.iter():
            for name, value in element.attrib.items():
                if etree.QName(name).localname == 'Id':
                    ids[value] = etree.QName(element).localname
        self.seen['covered'] = sorted(ids.get(r.get('URI', '')[1:], r.get('URI')) for r in
                                      security.iterfind('{%s}Signature/{%s}SignedInfo/{%s}Reference' % (ns.DS, ns.DS, ns.DS)))
        return envelope


class Unchecked(ClientSignature):
    """The same signature; the reply (a fault) is read without verifying it, noting whether it is signed."""

    def verify(self, envelope):
        self.seen['signed'] = envelope.find('.//{%s}Signature' % ns.DS) is not None
        return envelope


def main(base, version, folder):
    found = []
    logging.getLogger('zeep').addHandler(Recorder(found))
    parts = urlsplit(base)
    transport = LoopbackOnly((parts.scheme, parts.netloc))
    port = 'CalculatorSoap11' if version == '11' else 'CalculatorSoap12'

    def add(wsse, seen=None):
        client = zeep.Client('%s/secure/signed-calculator?wsdl' % base.rstrip('/'), transport=transport, wsse=wsse)
        service = client.bind('Calculator', port)
        try:
            got = {'result': service.Add(a=2, b=3)}
        except Fault as fault:
            got = {'code': fault.code, 'message': fault.message, 'subcodes': [str(s) for s in (fault.subcodes or [])]}
        except SignatureVerificationFailed:
            got = {'error': 'SignatureVerificationFailed'}
        if seen is not None:
            got['reply'] = seen
        return got

    out = {'zeep': zeep.__version__, 'xmlsec': xmlsec.__version__}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        seen = {}
        out['signed'] = add(Compose([Timestamp(), ClientSignature(folder, seen)]), seen)
        seen = {}
        out['tampered'] = add(Compose([Timestamp(), Unchecked(folder, seen), Tamper()]), seen)
        out['unsigned'] = add(Compose([Timestamp()]))
    out['warnings'] = found + [str(w.message) for w in caught]
    print(json.dumps(out))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], sys.argv[3])
