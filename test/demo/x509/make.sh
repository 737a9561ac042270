#!/usr/bin/env bash
# The demo's X.509 files: TEST KEYS ONLY, never for production. Made once
# with OpenSSL and committed; run again to replace them (then commit the new
# files; the tests read whatever is here).
#   test-ca.pem / test-ca.key          the demo CA (RSA 2048), 100 years
#   test-client.pem / test-client.key  a client certificate the CA issued
#   test-server.pem / test-server.key  the server's certificate, for signed replies
set -euo pipefail
cd "$(dirname "$0")"
days=36500
ext=$(mktemp)
trap 'rm -f "$ext" ./*.csr ./*.srl' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days $days -keyout test-ca.key -out test-ca.pem \
  -subj '/O=fastify-soap demo/CN=fastify-soap demo CA (test only)' \
  -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
  -addext 'subjectKeyIdentifier=hash'
printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
  'subjectKeyIdentifier=hash' 'authorityKeyIdentifier=keyid' > "$ext"
for who in client server; do
  openssl req -newkey rsa:2048 -nodes -sha256 -keyout "test-$who.key" -out "test-$who.csr" \
    -subj "/O=fastify-soap demo/CN=demo $who (test only)"
  openssl x509 -req -in "test-$who.csr" -CA test-ca.pem -CAkey test-ca.key -CAcreateserial -sha256 \
    -days $days -extfile "$ext" -out "test-$who.pem"
done
