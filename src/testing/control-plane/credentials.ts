import { generateKeyPair, randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { createCertificateAuthority, type CertificateAndKey } from "./x509.js";

/** Name of the built-in admin user (group `system:masters`). */
export const ADMIN_USER = "cocoon-admin";

/** Files and secrets one control plane is started with. */
export interface ControlPlaneCredentials {
  /** Bearer token of {@link ADMIN_USER}. */
  adminToken: string;
  /** CA that signs client certificates (`--client-ca-file`). */
  clientCA: CertificateAndKey;
  /** `--token-auth-file`. */
  tokenFile: string;
  /** `--client-ca-file`. */
  clientCAFile: string;
  /** `--service-account-key-file` and `--service-account-signing-key-file` (RSA, PKCS#8 PEM). */
  serviceAccountKeyFile: string;
}

/**
 * Writes throwaway credentials into `dir`: the admin token file, a client CA and a service-account key.
 *
 * @internal
 */
export async function writeCredentials(dir: string): Promise<ControlPlaneCredentials> {
  const adminToken = randomBytes(24).toString("base64url");
  const clientCA = createCertificateAuthority("cocoon-test-client-ca");
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  const files = {
    tokenFile: join(dir, "tokens.csv"),
    clientCAFile: join(dir, "client-ca.crt"),
    serviceAccountKeyFile: join(dir, "service-account.key"),
  };
  await Promise.all([
    writeFile(files.tokenFile, `${adminToken},${ADMIN_USER},${ADMIN_USER},"system:masters"\n`, { mode: 0o600 }),
    writeFile(files.clientCAFile, clientCA.certPem),
    writeFile(files.serviceAccountKeyFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 }),
  ]);
  return { adminToken, clientCA, ...files };
}
