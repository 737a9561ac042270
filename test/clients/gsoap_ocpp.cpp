// A gSOAP OCPP 1.6 charge point: Heartbeat to a Central System, with the wsa
// plugin writing WS-Addressing 1.0 headers and checking the reply's. Prints one JSON line.
#include "soapCentralSystemServiceSoapProxy.h"
#include "CentralSystemServiceSoap.nsmap"
#include "wsaapi.h"
#include <cstdio>
#include <string>

static std::string json (const char *s) {
  std::string out = "\"";
  for (; s != nullptr && *s; s++) {
    if (*s == '"' || *s == '\\') out += '\\';
    if ((unsigned char)*s < 0x20) continue;
    out += *s;
  }
  return out + "\"";
}

int main (int argc, char **argv) {
  if (argc < 2) return 2;
  const char *endpoint = argv[1];
  CentralSystemServiceSoapProxy proxy(SOAP_XML_INDENT);
  proxy.soap->connect_timeout = 10;
  proxy.soap->send_timeout = 10;
  proxy.soap->recv_timeout = 10;
  soap_register_plugin(proxy.soap, soap_wsa);
  std::string box = "CB-GSOAP";
  proxy.soap_header(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &box);
  // Heartbeat
  soap_wsa_request(proxy.soap, soap_wsa_rand_uuid(proxy.soap), endpoint, "/Heartbeat");
  ns1__HeartbeatRequest heartbeat;
  ns1__HeartbeatResponse beat;
  int status = proxy.Heartbeat(endpoint, "/Heartbeat", &heartbeat, beat);
  std::printf("{\"heartbeat\":%d", status);
  if (status == SOAP_OK) {
    std::printf(",\"currentTime\":%ld", (long)beat.currentTime);
    std::printf(",\"wsaCheck\":%d", soap_wsa_check(proxy.soap));
    const char *relates = proxy.soap->header != NULL && proxy.soap->header->wsa5__RelatesTo != NULL ? proxy.soap->header->wsa5__RelatesTo->__item : NULL;
    const char *action = proxy.soap->header != NULL ? proxy.soap->header->wsa5__Action : NULL;
    std::printf(",\"relatesTo\":%s,\"action\":%s", json(relates).c_str(), json(action).c_str());
  } else {
    std::printf(",\"error\":%s", json(*soap_faultstring(proxy.soap)).c_str());
  }
  std::printf("}\n");
  proxy.destroy();
  return 0;
}
