/** Representative envelopes, built the same way every run. */
export const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope'

/** The Calculator's Add, as a client sends it: about 400 bytes. */
export function addEnvelope (a = 2, b = 3): string {
  return '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${SOAP12}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    '<soap:Header/><soap:Body><calc:Add xmlns:calc="urn:example:calc">' +
    `<calc:a>${a}</calc:a><calc:b>${b}</calc:b>` +
    '</calc:Add></soap:Body></soap:Envelope>'
}

/** A list of records, about `bytes` long: the shape of a large SOAP payload. */
export function listEnvelope (bytes: number): string {
  const head = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><l:EchoList xmlns:l="urn:example:list">`
  const tail = '</l:EchoList></soap:Body></soap:Envelope>'
  let items = ''
  for (let i = 0; head.length + items.length + tail.length < bytes; i++) {
    items += `<l:item id="${i}"><l:name>item ${i} &amp; co</l:name><l:price>${(i * 1.25).toFixed(2)}</l:price><l:tags>a b c</l:tags></l:item>`
  }
  return head + items + tail
}
