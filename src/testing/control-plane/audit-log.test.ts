import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AUDIT_POLICY, auditArgs, auditFiles, readAuditLog } from "./audit-log.js";

const dir = mkdtempSync(join(tmpdir(), "cocoon-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVENT = {
  kind: "Event",
  apiVersion: "audit.k8s.io/v1",
  level: "Metadata",
  auditID: "0b1c",
  stage: "ResponseComplete",
  requestURI: "/api/v1/namespaces/ns/pods/p/status",
  verb: "patch",
  user: { username: "system:serviceaccount:ns:kubelet", groups: ["system:serviceaccounts", "system:authenticated"] },
  objectRef: { resource: "pods", namespace: "ns", name: "p", apiVersion: "v1", subresource: "status" },
  responseStatus: { metadata: {}, code: 200 },
  annotations: { "authorization.k8s.io/decision": "allow" },
};

describe("the audit files and flags", () => {
  it("keep the policy and the log in the plane's folder, as JSON lines written before the answer", () => {
    const files = auditFiles("/t");
    expect(files).toEqual({ policy: "/t/audit-policy.yaml", log: "/t/audit.log" });
    expect(auditArgs(files)).toEqual([
      "--audit-policy-file=/t/audit-policy.yaml",
      "--audit-log-path=/t/audit.log",
      "--audit-log-format=json",
      "--audit-log-mode=blocking",
    ]);
    expect(AUDIT_POLICY).toContain("level: Metadata");
  });
});

describe("readAuditLog", () => {
  it("parses every complete line, keeping unknown fields, and leaves a partial last line", async () => {
    const file = join(dir, "ok.log");
    writeFileSync(file, `${JSON.stringify(EVENT)}\n${JSON.stringify({ ...EVENT, auditID: "2" })}\n{"auditID":`);
    const events = await readAuditLog(file);
    expect(events.map((e) => e.auditID)).toEqual(["0b1c", "2"]);
    expect(events[0]).toMatchObject({ level: "Metadata", objectRef: { subresource: "status" }, responseStatus: { code: 200 } });
  });

  it("reads a missing log as no events", async () => {
    expect(await readAuditLog(join(dir, "none.log"))).toEqual([]);
  });

  it.each([
    { name: "a log past the cap", text: `${JSON.stringify(EVENT)}\n`, maxBytes: 10, message: /holds \d+ bytes, more than the 10/ },
    { name: "a line that is not JSON", text: "nope\n", maxBytes: undefined, message: /bad.log:1: not JSON/ },
    { name: "a line that is not an event", text: '{"verb":1}\n', maxBytes: undefined, message: /bad.log:1: not an audit event/ },
  ])("throws ERR_AUDIT_LOG on $name", async ({ text, maxBytes, message }) => {
    const file = join(dir, "bad.log");
    writeFileSync(file, text);
    await expect(readAuditLog(file, maxBytes === undefined ? {} : { maxBytes })).rejects.toMatchObject({
      code: "ERR_AUDIT_LOG",
      message: expect.stringMatching(message) as unknown,
    });
  });
});
