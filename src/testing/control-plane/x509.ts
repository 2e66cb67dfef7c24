import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from "node:crypto";
import { bits, explicit, integer, keyUsageBits, octets, oid, sequence, set, time, TRUE, utf8 } from "./der.js";

/** A PEM certificate with its PEM (PKCS#8) private key. */
export interface CertificateAndKey {
  /** `-----BEGIN CERTIFICATE-----` PEM. */
  certPem: string;
  /** `-----BEGIN PRIVATE KEY-----` PEM. */
  keyPem: string;
}

const ECDSA_SHA256 = sequence(oid("1.2.840.10045.4.3.2"));
const DAY_MS = 86_400_000;

/**
 * Creates a throwaway ECDSA P-256 certificate authority, valid for 10 years.
 *
 * @internal Used by the test control plane for `--client-ca-file`.
 */
export function createCertificateAuthority(commonName: string): CertificateAndKey {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const name = distinguishedName(commonName, []);
  const extensions = [
    extension("2.5.29.19", sequence(TRUE)), // basicConstraints CA:TRUE
    extension("2.5.29.15", keyUsageBits(0, 5)), // digitalSignature, keyCertSign
  ];
  return { certPem: certificate(name, name, publicKey, privateKey, extensions), keyPem: pkcs8(privateKey) };
}

/**
 * Issues a client certificate for `user` in `groups` (subject CN and O, as Kubernetes reads them).
 *
 * @internal Used by `kubeConfigFor`.
 */
export function issueClientCertificate(ca: CertificateAndKey, user: string, groups: readonly string[]): CertificateAndKey {
  const caKey = createPrivateKey(ca.keyPem);
  const issuer = subjectOf(ca.certPem);
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const extensions = [
    extension("2.5.29.19", sequence()), // basicConstraints CA:FALSE
    extension("2.5.29.15", keyUsageBits(0)), // digitalSignature
    extension("2.5.29.37", sequence(oid("1.3.6.1.5.5.7.3.2")), false), // extKeyUsage clientAuth
  ];
  const cert = certificate(issuer, distinguishedName(user, groups), publicKey, caKey, extensions);
  return { certPem: cert, keyPem: pkcs8(privateKey) };
}

function certificate(issuer: Buffer, subject: Buffer, publicKey: KeyObject, signer: KeyObject, extensions: Buffer[]): string {
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = sequence(
    explicit(0, integer(2)), // v3
    integer(serial),
    ECDSA_SHA256,
    issuer,
    sequence(time(new Date(now - DAY_MS)), time(new Date(now + 3650 * DAY_MS))),
    subject,
    publicKey.export({ type: "spki", format: "der" }),
    explicit(3, sequence(...extensions)),
  );
  const der = sequence(tbs, ECDSA_SHA256, bits(sign("sha256", tbs, signer)));
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

function distinguishedName(commonName: string, organizations: readonly string[]): Buffer {
  const rdn = (type: string, value: string): Buffer => set(sequence(oid(type), utf8(value)));
  return sequence(...organizations.map((o) => rdn("2.5.4.10", o)), rdn("2.5.4.3", commonName));
}

function extension(id: string, value: Buffer, critical = true): Buffer {
  return critical ? sequence(oid(id), TRUE, octets(value)) : sequence(oid(id), octets(value));
}

function pkcs8(key: KeyObject): string {
  return key.export({ type: "pkcs8", format: "pem" }).toString();
}

/** Re-encodes the subject of a certificate this module wrote (its CN only, as written above). */
function subjectOf(certPem: string): Buffer {
  const cn = /CN=([^\n]*)/.exec(new X509Certificate(certPem).subject)?.[1] ?? "";
  return distinguishedName(cn, []);
}
