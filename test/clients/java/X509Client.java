/*
 * A JAX-WS (Metro) client of the demo's /secure/signed-calculator, from the
 * classes wsimport generated from its live WSDL (package calc). Usage:
 *   java X509Client <service URL> <1.1|1.2> <folder of the demo's X.509 PEM files>
 * Calls Add(2, 3), then the same with the Body changed after signing, and
 * prints one JSON object: what each call returned, or the fault it raised,
 * and what the handler found in each reply.
 *
 * (docs/security.md "X.509 signatures") WSS4J 1.6 signs each request from a JAX-WS handler, as its
 * users do: a wsu:Timestamp (WSSecTimestamp), then WSSecSignature over the
 * Body and the Timestamp with the demo client's key, its certificate as a
 * BinarySecurityToken (BST_DIRECT_REFERENCE), RSA-SHA256 and SHA-256 digests
 * (WSS4J's default is SHA-1). The key and the CA are loaded from the PEM files
 * into in-memory keystores. The reply is verified by WSSecurityEngine against
 * a trust store holding the CA only; what it found is put in the output.
 */
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.WebServiceException;
import javax.xml.ws.handler.Handler;
import javax.xml.ws.handler.MessageContext;
import javax.xml.ws.handler.soap.SOAPHandler;
import javax.xml.ws.handler.soap.SOAPMessageContext;
import javax.xml.ws.soap.SOAPFaultException;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSDataRef;
import org.apache.ws.security.WSEncryptionPart;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.components.crypto.Merlin;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecSignature;
import org.apache.ws.security.message.WSSecTimestamp;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

public final class X509Client {
  static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
  static final String WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
  static final String PASSWORD = "in-memory only";

  private X509Client () {
  }

  static X509Certificate certificate (String file) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Paths.get(file))));
  }

  /* The client's key (PKCS#8 PEM) and certificate in a keystore, the CA alone in a trust store. */
  static Merlin crypto (String folder) throws Exception {
    String pem = new String(Files.readAllBytes(Paths.get(folder, "test-client.key")), StandardCharsets.US_ASCII);
    byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    X509Certificate ca = certificate(folder + "/test-ca.pem");
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("client", key, PASSWORD.toCharArray(), new Certificate[] { certificate(folder + "/test-client.pem"), ca });
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    Merlin crypto = new Merlin();
    crypto.setKeyStore(keys);
    crypto.setTrustStore(trust);
    return crypto;
  }

  static Document dom (SOAPMessageContext context) throws Exception {
    // On a plain DOM copy (SAAJ's own DOM refuses nodes WSS4J creates).
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    context.getMessage().writeTo(bytes);
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(bytes.toByteArray()));
  }

  static final class Signer implements SOAPHandler<SOAPMessageContext> {
    final Merlin crypto;
    final boolean tamper;
    final Map<String, Object> reply = new LinkedHashMap<>();

    Signer (Merlin crypto, boolean tamper) {
      this.crypto = crypto;
      this.tamper = tamper;
    }

    public boolean handleMessage (SOAPMessageContext context) {
      try {
        if ((Boolean) context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) sign(context);
        else verify(context);
      } catch (Exception e) {
        reply.put("error", e.toString());
        throw new WebServiceException(e);
      }
      return true;
    }

    void sign (SOAPMessageContext context) throws Exception {
      Document doc = dom(context);
      WSSecHeader header = new WSSecHeader();
      header.setMustUnderstand(true);
      header.insertSecurityHeader(doc);
      WSSecTimestamp timestamp = new WSSecTimestamp();
      timestamp.setTimeToLive(300);
      timestamp.build(doc, header);
      WSSecSignature signature = new WSSecSignature();
      signature.setUserInfo("client", PASSWORD);
      signature.setKeyIdentifierType(WSConstants.BST_DIRECT_REFERENCE);
      signature.setSignatureAlgorithm(RSA_SHA256);
      signature.setDigestAlgo(WSConstants.SHA256);
      List<WSEncryptionPart> parts = new ArrayList<>();
      String soapNs = doc.getDocumentElement().getNamespaceURI();
      parts.add(new WSEncryptionPart(WSConstants.ELEM_BODY, soapNs, "Content"));
      parts.add(new WSEncryptionPart(WSConstants.TIMESTAMP_TOKEN_LN, WSConstants.WSU_NS, ""));
      signature.setParts(parts);
      signature.build(doc, crypto, header);
      if (tamper) {
        // After signing, as a proxy could: b becomes 4.
        NodeList bs = doc.getElementsByTagNameNS("urn:example:calc", "b");
        bs.item(0).setTextContent("4");
      }
      context.getMessage().getSOAPPart().setContent(new DOMSource(doc));
      context.getMessage().saveChanges();
    }

    /* WSSecurityEngine on the reply: the Timestamp, the signature, and its certificate's path to the CA (SignatureTrustValidator). */
    void verify (SOAPMessageContext context) throws Exception {
      Document doc = dom(context);
      List<WSSecurityEngineResult> results = new WSSecurityEngine().processSecurityHeader(doc, null, null, crypto);
      if (results == null) throw new IllegalStateException("the reply has no wsse:Security header");
      List<String> actions = new ArrayList<>();
      List<String> covered = new ArrayList<>();
      for (WSSecurityEngineResult result : results) {
        int action = (Integer) result.get(WSSecurityEngineResult.TAG_ACTION);
        actions.add(action == WSConstants.SIGN ? "Signature" : action == WSConstants.TS ? "Timestamp" : action == WSConstants.BST ? "BinarySecurityToken" : String.valueOf(action));
        if (action != WSConstants.SIGN) continue;
        X509Certificate signer = (X509Certificate) result.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
        reply.put("signer", signer.getSubjectX500Principal().getName());
        reply.put("trusted", result.get(WSSecurityEngineResult.TAG_VALIDATED_TOKEN));
        @SuppressWarnings("unchecked")
        List<WSDataRef> refs = (List<WSDataRef>) result.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
        for (WSDataRef ref : refs) covered.add(ref.getName().getLocalPart());
      }
      Collections.sort(actions);
      Collections.sort(covered);
      reply.put("actions", actions);
      reply.put("covered", covered);
    }

    public boolean handleFault (SOAPMessageContext context) {
      try {
        reply.put("signed", dom(context).getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "Signature").getLength() > 0);
      } catch (Exception e) {
        reply.put("error", e.toString());
      }
      return true;
    }

    public void close (MessageContext context) {
    }

    /* The reply's wsse:Security header is this handler's: Metro would refuse it, mustUnderstand, otherwise. */
    public Set<QName> getHeaders () {
      return Collections.singleton(new QName(WSSE, "Security"));
    }
  }

  public static void main (String[] args) {
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      run(args[0], "1.2".equals(args[1]), args[2], out);
    } catch (Throwable e) {
      out.put("error", e.toString());
    }
    System.out.println(Report.json(out));
  }

  static void run (String url, boolean v12, String folder, Map<String, Object> out) throws Exception {
    Merlin crypto = crypto(folder);
    for (String name : new String[] { "signed", "tampered" }) {
      calc.Calculator_Service service = new calc.Calculator_Service();
      calc.Calculator port = v12 ? service.getCalculatorSoap12() : service.getCalculatorSoap11();
      ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, url);
      Signer signer = new Signer(crypto, name.equals("tampered"));
      List<Handler> chain = new ArrayList<>();
      chain.add(signer);
      ((BindingProvider) port).getBinding().setHandlerChain(chain);
      Map<String, Object> got = new LinkedHashMap<>();
      try {
        got.put("result", port.add(2, 3));
      } catch (SOAPFaultException e) {
        got.put("fault", Report.fault(e.getFault()));
      } catch (WebServiceException e) {
        got.put("error", e.toString());
      }
      got.put("reply", signer.reply);
      out.put(name, got);
    }
  }
}
