import { describe, expect, it } from "vitest";
import { CocoonHibernationSchema, CocoonSetListSchema, CocoonSetSchema } from "../../apis/v1/index.js";
import { isCocoonError } from "../../errors.js";
import { parseServerList, parseServerObject } from "./parse-server-object.js";
import { UnexpectedObjectError, isUnexpectedObjectError } from "./unexpected-object-error.js";

const API = "cocoonset.cocoonstack.io/v1";
const set = (name: string, agent: Record<string, unknown> = { image: "x:1" }) => ({
  apiVersion: API,
  kind: "CocoonSet",
  metadata: { name, namespace: "demo", resourceVersion: "5" },
  spec: { agent },
});
const list = (...items: unknown[]) => ({ apiVersion: API, kind: "CocoonSetList", metadata: { resourceVersion: "9" }, items });

function caught(fn: () => unknown): UnexpectedObjectError {
  try {
    fn();
  } catch (err) {
    if (isUnexpectedObjectError(err)) return err;
    throw err;
  }
  throw new Error("did not throw");
}

describe("parseServerObject", () => {
  it("returns the parsed object, CRD defaults applied", () => {
    const parsed = parseServerObject(CocoonSetSchema, "CocoonSet", set("a"));
    expect(parsed.spec?.agent.mode).toBe("clone");
    expect(parsed.spec?.snapshotPolicy).toBe("always");
    expect(parsed.metadata).toEqual({ name: "a", namespace: "demo", resourceVersion: "5" });
  });

  it("names the object and the path of the first issue", () => {
    const err = caught(() => parseServerObject(CocoonSetSchema, "CocoonSet", set("big", { image: "x:1", replicas: 2 ** 31 })));
    expect(err).toBeInstanceOf(UnexpectedObjectError);
    expect(isCocoonError(err, "ERR_UNEXPECTED_OBJECT")).toBe(true);
    expect(err.name).toBe("UnexpectedObjectError");
    expect([err.kind, err.namespace, err.objectName, err.path]).toEqual(["CocoonSet", "demo", "big", "spec.agent.replicas"]);
    expect(err.message).toBe(
      "CocoonSet demo/big from the API server does not parse: spec.agent.replicas: Too big: expected number to be <=2147483647",
    );
    expect(err.issues).toHaveLength(1);
    expect(err.cause).toBeInstanceOf(Error);
  });

  it("counts the other issues and marks a path inside a list with brackets", () => {
    const bad = {
      ...set("t"),
      spec: { agent: { image: "x:1" }, toolboxes: [{ name: "ok" }, { name: "b", mode: "fly" }] },
      status: { phase: 3 },
    };
    const err = caught(() => parseServerObject(CocoonSetSchema, "CocoonSet", bad));
    expect(err.path).toBe("spec.toolboxes[1].mode");
    expect(err.message).toMatch(/^CocoonSet demo\/t from the API server does not parse: spec\.toolboxes\[1\]\.mode: .* \(and 2 more\)$/);
    expect(err.issues.map((i) => i.path.join("."))).toEqual(["spec.toolboxes.1.mode", "status.phase", ""]);
  });

  it("says what it got when there is no name to give", () => {
    const err = caught(() => parseServerObject(CocoonHibernationSchema, "CocoonHibernation", "<html>"));
    expect(err.message).toBe(
      "a CocoonHibernation from the API server does not parse: (the object): Invalid input: expected object, received string",
    );
    expect([err.namespace, err.objectName, err.path]).toEqual(["", "", ""]);
  });

  it("refuses an integer beyond 2^53, which JSON.parse cannot hold", () => {
    const raw: unknown = JSON.parse(
      `{"apiVersion":"${API}","kind":"CocoonSet","metadata":{"name":"n","namespace":"demo"},"status":{"observedGeneration":9007199254740993}}`,
    );
    expect(caught(() => parseServerObject(CocoonSetSchema, "CocoonSet", raw)).path).toBe("status.observedGeneration");
  });
});

describe("parseServerList", () => {
  it("returns the parsed list", () => {
    const parsed = parseServerList(CocoonSetListSchema, "CocoonSet", list(set("a"), set("b")));
    expect(parsed.items.map((s) => s.metadata.name)).toEqual(["a", "b"]);
    expect(parsed.metadata).toEqual({ resourceVersion: "9" });
  });

  it("names the first item that does not parse, with paths relative to it", () => {
    const err = caught(() =>
      parseServerList(CocoonSetListSchema, "CocoonSet", list(set("a"), set("b", { replicas: 1 }), set("c", { image: 1 }))),
    );
    expect([err.kind, err.namespace, err.objectName, err.path]).toEqual(["CocoonSet", "demo", "b", "spec.agent.image"]);
    expect(err.message).toBe(
      "CocoonSet demo/b (item 1 of a list) from the API server does not parse: spec.agent.image: Invalid input: expected string, received undefined (and 1 more)",
    );
    expect(err.issues.map((i) => i.path.join("."))).toEqual(["spec.agent.image", ""]);
  });

  it("names the list when the list itself is off", () => {
    const err = caught(() => parseServerList(CocoonSetListSchema, "CocoonSet", { ...list(), kind: "Status" }));
    expect(err.kind).toBe("CocoonSetList");
    expect(err.message).toBe('a CocoonSetList from the API server does not parse: kind: Invalid input: expected "CocoonSetList"');
  });
});
