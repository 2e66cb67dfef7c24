// Run by oci-forward-proxy.test.ts in a child process whose proxy settings are Node's own
// (NODE_USE_ENV_PROXY, HTTP_PROXY): `node --import tsx registry-methods-child.ts <host> <name>`.
// Prints the bytes read back and the requests the client counted, as JSON.
import { OCIRegistry } from "../../src/oci/index.js";
import { callEveryMethod } from "./registry-methods.js";

const [host = "", name = ""] = process.argv.slice(2);
const registry = new OCIRegistry(host, { retries: 0 });
const read = await callEveryMethod(registry, name);
process.stdout.write(`${JSON.stringify({ read, requests: registry.requestCounts.registry })}\n`);
