import { X509Certificate, createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCertificateAuthority, issueClientCertificate } from "./x509.js";

describe("x509", () => {
  const ca = createCertificateAuthority("cocoon-test-client-ca");

  it("creates a self-signed CA", () => {
    const cert = new X509Certificate(ca.certPem);
    expect(cert.subject).toBe("CN=cocoon-test-client-ca");
    expect(cert.issuer).toBe("CN=cocoon-test-client-ca");
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(createPrivateKey(ca.keyPem).asymmetricKeyType).toBe("ec");
  });

  it("issues a client certificate with user as CN and groups as O, signed by the CA", () => {
    const issued = issueClientCertificate(ca, "alice", ["dev", "system:ops"]);
    const cert = new X509Certificate(issued.certPem);
    const caCert = new X509Certificate(ca.certPem);
    expect(cert.subject).toBe("O=dev\nO=system:ops\nCN=alice");
    expect(cert.issuer).toBe("CN=cocoon-test-client-ca");
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(cert.checkPrivateKey(createPrivateKey(issued.keyPem))).toBe(true);
    expect(new Date(cert.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
  });

  it("gives every certificate its own serial number", () => {
    const a = new X509Certificate(issueClientCertificate(ca, "bob", []).certPem);
    const b = new X509Certificate(issueClientCertificate(ca, "bob", []).certPem);
    expect(a.subject).toBe("CN=bob");
    expect(a.serialNumber).not.toBe(b.serialNumber);
  });

  it("is not accepted by a different CA", () => {
    const other = new X509Certificate(createCertificateAuthority("cocoon-test-client-ca").certPem);
    const cert = new X509Certificate(issueClientCertificate(ca, "mallory", []).certPem);
    expect(cert.verify(other.publicKey)).toBe(false);
  });
});
