/**
 * What a Go client receives for a quantity written as a JSON number (issue 9, "Where the
 * TypeScript and Go disagree" item 6), measured on the shared kube-apiserver: the request body and
 * the answer travel as raw text, so no JavaScript number ever stands between the wire and the test.
 *
 * The server converts a JSON number to an int64 when it can and otherwise keeps a float64, which
 * the `x-kubernetes-int-or-string` schema refuses: only int64 integers are ever stored, and they
 * come back as their exact digits, the text Go's `Quantity.UnmarshalJSON` parses.
 *
 * @module
 */
import { Agent, request } from "node:https";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isCocoonError } from "../../src/errors.js";
import { parseQuantity, quantityString } from "../../src/meta/index.js";
import { createTestNamespace } from "./helpers.js";

const connection = inject("controlPlane");
const agent = new Agent({ keepAlive: true, ca: connection.caPem });
let namespace = "";
let created = 0;

/** Sends `body` (raw JSON text) and returns the status and the raw answer text. */
function send(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const headers = { authorization: `Bearer ${connection.adminToken}`, "content-type": "application/json", accept: "application/json" };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, connection.server), { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Creates a CocoonSet whose `spec.agent.storage` is `number` (JSON text); returns the status and the text read back. */
async function storeStorage(number: string): Promise<{ status: number; stored?: string | undefined; message?: string }> {
  const name = `q${String(created++)}`;
  const collection = `/apis/cocoonset.cocoonstack.io/v1/namespaces/${namespace}/cocoonsets`;
  const body = `{"apiVersion":"cocoonset.cocoonstack.io/v1","kind":"CocoonSet","metadata":{"name":"${name}"},"spec":{"agent":{"image":"img","storage":${number}}}}`;
  const answer = await send("POST", collection, body);
  if (answer.status !== 201) return { status: answer.status, message: (JSON.parse(answer.text) as { message: string }).message };
  const read = await send("GET", `${collection}/${name}`);
  return { status: answer.status, stored: /"storage":([^,}]*)/.exec(read.text)?.[1] };
}

/** What the TS side computes from the answer after `JSON.parse`, or the code of the error it throws. */
function fromNumber(text: string): string {
  try {
    return quantityString(JSON.parse(text) as number);
  } catch (error) {
    return isCocoonError(error) ? error.code : "unexpected";
  }
}

beforeAll(async () => {
  namespace = await createTestNamespace("quantity");
});
afterAll(() => agent.destroy());

describe("a quantity sent as a JSON number", () => {
  // [sent, the exact text the server stores and sends back]
  it.each<[string, string]>([
    ["1000", "1000"],
    ["1e3", "1000"],
    ["1E3", "1000"],
    ["1.0", "1"],
    ["-0", "0"],
    ["-0.0", "0"],
    ["9007199254740991", "9007199254740991"],
    ["9007199254740993", "9007199254740993"],
    ["9223372036854775807", "9223372036854775807"],
  ])("%s is stored as the integer %s; TS agrees with Go within 2^53 and refuses past it", async (sent, stored) => {
    const answer = await storeStorage(sent);
    expect(answer).toEqual({ status: 201, stored });
    const go = parseQuantity(stored).text; // what Go's UnmarshalJSON makes of the received text
    const exact = Math.abs(Number(stored)) <= Number.MAX_SAFE_INTEGER;
    expect(fromNumber(stored)).toBe(exact ? go : "ERR_INVALID_QUANTITY");
    expect(quantityString(BigInt(stored))).toBe(go); // the digits as a bigint: Go's text, always
  });

  it.each(["1e300", "123456789012345678901234567890", "9223372036854775808", "1e21", "1.5", "0.1", "1e-7"])(
    "%s is refused with 422: never stored, so no Go client ever reads it",
    async (sent) => {
      const answer = await storeStorage(sent);
      expect(answer.status).toBe(422);
      expect(answer.message).toContain('spec.agent.storage in body must be of type integer,string: "number"');
    },
  );

  it("1e400 (past float64) is refused with 400 before validation", async () => {
    const answer = await storeStorage("1e400");
    expect(answer.status).toBe(400);
    expect(answer.message).toContain("cannot unmarshal number 1e400 into Go value of type float64");
  });
});
