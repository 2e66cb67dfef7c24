// Run by default-fetch.test.ts in a child process, to see what the default `fetch` trusts in a
// process started with NODE_EXTRA_CA_CERTS (Node reads it once, at startup):
// `node --import tsx read-manifest-child.test-util.ts <https URL>`. Prints the status and body
// length, or the code of the TLS error that failed the request.
import { defaultFetch } from "./default-fetch.js";

try {
  const response = await defaultFetch()(process.argv[2] ?? "");
  process.stdout.write(`${JSON.stringify({ status: response.status, bytes: (await response.arrayBuffer()).byteLength })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code })}\n`);
}
