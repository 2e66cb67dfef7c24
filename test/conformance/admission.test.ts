// The admission webhook end to end: our admissionHandler on a real node:http server against Go's
// admission.Serve over k8s.io/api/admission/v1 (re-declared cocoon-common v0.3.0), on generated
// and adversarial bodies: same status, content type and bytes, and the handler called alike.
import { createServer, request as httpRequest, type Agent, type Server, Agent as HttpAgent } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMISSION_RESPONSE, ADMISSION_REVIEW } from "../../src/k8s/admission/review-go-types.js";
import { admissionHandler, allow, deny, type AdmissionResult } from "../../src/k8s/index.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";
import { valueText } from "./support/admission-bodies.js";
import { validText } from "./support/text.js";

type Verdict = { allow: true } | { deny: string } | { response: Record<string, unknown> };

interface Case {
  body: string;
  verdict: Verdict;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
  called: boolean;
}

const nested = (depth: number): string => `{"request":{"uid":"d","object":${"[".repeat(depth)}${"]".repeat(depth)}}}`;

const verdict: fc.Arbitrary<Verdict> = fc.oneof(
  fc.constant({ allow: true as const }),
  validText.map((message) => ({ deny: message })),
  fc.constantFrom("").map((message) => ({ deny: message })),
  fc
    .record(
      {
        uid: fc.constant("ignored"),
        allowed: fc.boolean(),
        status: fc.record(
          { message: validText, reason: fc.constantFrom("", "Invalid"), code: fc.constantFrom(0, 403) },
          { requiredKeys: [] },
        ),
        patch: fc.constantFrom("", "W10=", "AA=="),
        patchType: fc.constant("JSONPatch"),
        auditAnnotations: fc.dictionary(validText, validText, { maxKeys: 2 }),
        warnings: fc.array(validText, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((response) => ({ response })),
);

const cases: fc.Arbitrary<Case> = fc.record({
  body: fc.oneof(
    { arbitrary: valueText(ADMISSION_REVIEW), weight: 20 },
    { arbitrary: fc.tuple(valueText(ADMISSION_REVIEW), fc.constantFrom(" ", " x", "{", "]")).map(([b, tail]) => b + tail), weight: 2 },
    { arbitrary: fc.constantFrom("", "null", "[]", '"x"', "nul", "{", "\ufeff{}"), weight: 1 },
  ),
  verdict,
});

const examples: Case[] = [
  ...[
    '{"request":{"dryRun":"yes"}}',
    '{"request":{"operation":5}}',
    '{"request":{"kind":"CocoonSet"}}',
    '{"request":{"userInfo":[]}}',
    '{"request":{"name":7}}',
    '{"request":{"uid":"u"},"response":{"allowed":"yes"}}',
    '{"__proto__":{"request":{"uid":"s"}}}',
    '{"request":{"uid":"u","x":1,"object":{ "a" : 1.0 }}}',
    '{"request":{"userInfo":{"groups":[null,"g"],"extra":{"k":null}}}}',
    '{"request":{"uid":"a","UID":"b","userInfo":{"username":"x"},"userInfo":{"uid":"y"}}}',
  ].map((body) => ({ body, verdict: { allow: true as const } })),
  { body: '{"request":{"uid":"u"}}', verdict: { deny: "" } },
  { body: nested(9_998), verdict: { allow: true } },
  { body: nested(9_999), verdict: { allow: true } },
];

describeConformance("admission.Serve", (oracle) => {
  let server: Server;
  let agent: Agent;
  let port = 0;
  let called = false;
  let current: Verdict = { allow: true };

  beforeAll(async () => {
    const handle = (): AdmissionResult | undefined => {
      called = true;
      if ("deny" in current) return deny(current.deny);
      if ("response" in current) return current.response as unknown as AdmissionResult;
      return allow();
    };
    server = createServer(admissionHandler(handle, { logger: { error: () => undefined } }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Posts the body to our handler, one request at a time (the verdict is shared state). */
  const post = (c: Case): Promise<Answer> => {
    called = false;
    current = c.verdict;
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, agent, method: "POST", path: "/validate" }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers["content-type"] ?? "",
            body: Buffer.concat(chunks).toString("utf8"),
            called,
          }),
        );
      });
      req.on("error", reject);
      req.end(c.body);
    });
  };

  it("describes admission/v1's AdmissionReview exactly as reflection on the Go types does", async () => {
    const go = await oracle().ask<{ fields: { name: string; type: unknown }[] }>({ op: "goTypes", args: { kind: "AdmissionReview" } });
    expect(JSON.parse(JSON.stringify(ADMISSION_REVIEW))).toEqual(go);
    expect(go.fields.find((f) => f.name === "response")?.type).toEqual({
      kind: "ptr",
      elem: JSON.parse(JSON.stringify(ADMISSION_RESPONSE)) as unknown,
    });
  });

  it(
    "answers every body as Go's admission.Serve does, byte for byte",
    async () => {
      const results: Answer[] = [];
      await compareWithGo<Case, Answer>(oracle(), {
        name: "admission.Serve",
        arbitrary: cases,
        examples,
        numRuns: 3_000,
        request: (c) => ({ op: "admission", args: c }),
        check: async (c, go) => {
          const ours = await post(c);
          results.push(ours);
          expectSame(c, ours, go);
        },
      });
      const count = (status: number): number => results.filter((r) => r.status === status).length;
      console.info(
        `[conformance] admission.Serve answers: ${String(count(200))} × 200, ${String(count(400))} × 400, ${String(count(500))} × 500`,
      );
      // Both ways through Serve are exercised in numbers, not by luck.
      expect(count(200)).toBeGreaterThan(results.length / 10);
      expect(count(400)).toBeGreaterThan(results.length / 10);
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});
