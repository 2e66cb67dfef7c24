import { describe, expect, it } from "vitest";
import { buildKubeConfig, renderKubeconfig } from "./kubeconfig.js";
import { createCertificateAuthority, issueClientCertificate } from "./x509.js";

const ca = createCertificateAuthority("server-ca");
const b64 = (text: string): string => Buffer.from(text).toString("base64");

describe("buildKubeConfig", () => {
  it("holds a token user, the server and its CA, with verification on", () => {
    const kc = buildKubeConfig({
      server: "https://127.0.0.1:6443",
      caPem: ca.certPem,
      user: "cocoon-admin",
      credentials: { token: "t0k" },
    });
    expect(kc.getCurrentContext()).toBe("cocoon-admin@cocoon-test");
    expect(kc.getCurrentCluster()).toMatchObject({ server: "https://127.0.0.1:6443", caData: b64(ca.certPem), skipTLSVerify: false });
    expect(kc.getCurrentUser()).toMatchObject({ name: "cocoon-admin", token: "t0k" });
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe("default");
  });

  it("holds a client-certificate user with names that need quoting", () => {
    const cert = issueClientCertificate(ca, "system:serviceaccount:a:b", ["x"]);
    const kc = buildKubeConfig({ server: "https://127.0.0.1:1", caPem: ca.certPem, user: "system:serviceaccount:a:b", credentials: cert });
    expect(kc.getCurrentUser()).toMatchObject({
      name: "system:serviceaccount:a:b",
      certData: b64(cert.certPem),
      keyData: b64(cert.keyPem),
    });
  });
});

describe("renderKubeconfig", () => {
  it("writes a YAML kubeconfig document", () => {
    const yaml = renderKubeconfig({ server: "https://127.0.0.1:6443", caPem: "CA", user: "u", credentials: { token: "t" } });
    expect(yaml).toBe(
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: cocoon-test",
        "  cluster:",
        '    server: "https://127.0.0.1:6443"',
        `    certificate-authority-data: ${b64("CA")}`,
        "users:",
        '- name: "u"',
        "  user:",
        '    token: "t"',
        "contexts:",
        '- name: "u@cocoon-test"',
        "  context:",
        "    cluster: cocoon-test",
        '    user: "u"',
        "    namespace: default",
        'current-context: "u@cocoon-test"',
        "",
      ].join("\n"),
    );
  });
});
