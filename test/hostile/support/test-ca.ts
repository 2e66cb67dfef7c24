import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { isIP } from "node:net";

/** A certificate and its key, PEM-encoded. */
export interface TestCertificate {
  readonly cert: string;
  readonly key: string;
}

/** A CA made at test time and one server certificate it signed for `names`. */
export interface TestPKI {
  /** The CA certificate: the only one the client trusts. */
  readonly ca: string;
  /** A server certificate for every name given (DNS names and IP addresses). */
  readonly server: TestCertificate;
  /** A client certificate (subject `cocoon-kubelet`) signed by the same CA, for mutual TLS. */
  readonly client: TestCertificate;
}

// A few DER encoders, just what an X.509 v3 certificate with ECDSA P-256 needs.
function der(tag: number, ...parts: Uint8Array[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
const seq = (...parts: Uint8Array[]): Buffer => der(0x30, ...parts);
const set = (...parts: Uint8Array[]): Buffer => der(0x31, ...parts);
const octets = (data: Uint8Array): Buffer => der(0x04, data);
const bits = (data: Uint8Array): Buffer => der(0x03, Buffer.from([0]), data);
const utf8 = (text: string): Buffer => der(0x0c, Buffer.from(text, "utf8"));
const utcTime = (date: Date): Buffer => der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, "")}Z`));
const bool = (value: boolean): Buffer => der(0x01, Buffer.from([value ? 0xff : 0]));

function oid(text: string): Buffer {
  const [a = 0, b = 0, ...rest] = text.split(".").map(Number);
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const groups = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
}

function integer(value: number): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  if (bytes.length === 0 || (bytes[0] ?? 0) >= 0x80) bytes.unshift(0);
  return der(0x02, Buffer.from(bytes));
}

const ECDSA_SHA256 = seq(oid("1.2.840.10045.4.3.2"));
const name = (cn: string): Buffer => seq(set(seq(oid("2.5.4.3"), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer): Buffer => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

function altNames(names: readonly string[]): Buffer {
  const entries = names.map((n) => {
    if (isIP(n) === 4) return der(0x87, Buffer.from(n.split(".").map(Number)));
    return der(0x82, Buffer.from(n, "ascii"));
  });
  return seq(...entries);
}

let serial = 1;

function certificate(subject: string, issuer: string, publicKey: KeyObject, signer: KeyObject, extensions: Buffer[]): string {
  const now = Date.now();
  const tbs = seq(
    der(0xa0, integer(2)),
    integer(serial++),
    ECDSA_SHA256,
    name(issuer),
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    name(subject),
    publicKey.export({ type: "spki", format: "der" }),
    der(0xa3, seq(...extensions)),
  );
  const signature = sign("sha256", tbs, signer);
  const body = seq(tbs, ECDSA_SHA256, bits(signature)).toString("base64");
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;
}

/**
 * Makes a fresh CA and a server certificate for `names`, in memory, with node:crypto alone:
 * each test run trusts a CA nobody else has, and no system binary is involved.
 */
export function makeTestPKI(names: readonly string[]): TestPKI {
  const ca = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const leaf = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const caCert = certificate("cocoon hostile-peer test CA", "cocoon hostile-peer test CA", ca.publicKey, ca.privateKey, [
    extension("2.5.29.19", true, seq(bool(true))),
    extension("2.5.29.15", true, bits(Buffer.from([0x06]))), // keyCertSign, cRLSign
  ]);
  const serverCert = certificate(names[0] ?? "server", "cocoon hostile-peer test CA", leaf.publicKey, ca.privateKey, [
    extension("2.5.29.19", true, seq()),
    extension("2.5.29.17", false, altNames(names)),
  ]);
  const key = leaf.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const clientKeys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const clientCert = certificate("cocoon-kubelet", "cocoon hostile-peer test CA", clientKeys.publicKey, ca.privateKey, [
    extension("2.5.29.19", true, seq()),
  ]);
  const client = { cert: clientCert, key: clientKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
  return { ca: caCert, server: { cert: serverCert, key }, client };
}
