/**
 * The committed Go vectors (test/fixtures/go/) are the ones SHA256SUMS names: none edited, added or
 * removed without `npm run vectors:refresh`, large binaries gzipped by the rule, the tree within its
 * size budget, git told never to touch their line endings, and Go's bytes intact through the gzip.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { MANIFEST, manifestProblems, parseManifest, sha256Hex, SIZE_BUDGET_BYTES, treeBytes } from "../scripts/vectors/checksums.js";
import { GO_VECTORS, readGoJSON, readGoText, readGoVector, SNAPSHOT_VECTOR_CASES } from "../src/internal/go-vectors.test-util.js";

const listed = parseManifest(readFileSync(path.join(GO_VECTORS, MANIFEST), "utf8"));

describe("test/fixtures/go against SHA256SUMS", () => {
  it("holds exactly the vectors SHA256SUMS lists, with their bytes, stored by the rule, within the budget", () => {
    expect(manifestProblems(GO_VECTORS)).toEqual([]);
  });

  it("lists 219 vectors: 214 registry, 2 CRDs, 2 operator, 1 reference", () => {
    const perSet: Record<string, number> = {};
    for (const name of listed.keys()) perSet[name.split("/")[0] ?? ""] = (perSet[name.split("/")[0] ?? ""] ?? 0) + 1;
    expect(perSet).toEqual({ registry: 214, crds: 2, operator: 2, reference: 1 });
  });

  it(`stores them in at most ${SIZE_BUDGET_BYTES} bytes`, () => {
    expect(treeBytes(GO_VECTORS)).toBeLessThanOrEqual(SIZE_BUDGET_BYTES);
  });
});

describe("Go's bytes through the gzip", () => {
  it.each(SNAPSHOT_VECTOR_CASES)("%s: stream.tar has the size and sha256 Go recorded, manifest.json the digest Go pushed", (dir) => {
    const at = `registry/snapshot/${dir}`;
    const stream = readGoVector(`${at}/stream.tar`);
    const result = readGoJSON<{ size: number; sha256: string }>(`${at}/stream-result.json`);
    expect({ size: stream.length, sha256: `sha256:${sha256Hex(stream)}` }).toEqual({ size: result.size, sha256: result.sha256 });
    expect(`sha256:${sha256Hex(readGoVector(`${at}/manifest.json`))}`).toBe(readGoText(`${at}/manifest.digest`));
  });
});

describe("git keeps the vectors' bytes", () => {
  it.each(["registry/snapshot/v1-basic/manifest.json", "registry/snapshot/v2-chunked/export.tar.gz", "SHA256SUMS"])(
    "%s: no end-of-line conversion (text unset)",
    (file) => {
      const root = path.resolve(GO_VECTORS, "../../..");
      const out = execFileSync("git", ["check-attr", "text", "--", `test/fixtures/go/${file}`], { cwd: root, encoding: "utf8" });
      expect(out).toBe(`test/fixtures/go/${file}: text: unset\n`);
    },
  );
});

describe("manifestProblems on a tampered copy", () => {
  let copy = "";
  const fresh = (): string => {
    copy = mkdtempSync(path.join(tmpdir(), "go-vectors-"));
    cpSync(GO_VECTORS, copy, { recursive: true });
    return copy;
  };
  afterEach(() => rmSync(copy, { recursive: true, force: true }));
  const digestOf = (name: string): string => listed.get(name) ?? "";

  it("names a plain vector edited by one byte", () => {
    const dir = fresh();
    const file = path.join(dir, "registry/snapshot/v1-basic/manifest.json");
    const bytes = readFileSync(file);
    bytes[0] = 0x20;
    writeFileSync(file, bytes);
    expect(manifestProblems(dir)).toEqual([
      `registry/snapshot/v1-basic/manifest.json: sha256 ${sha256Hex(bytes)}, SHA256SUMS says ${digestOf("registry/snapshot/v1-basic/manifest.json")} (edited?)`,
    ]);
  });

  it("names a gzipped vector whose content changed", () => {
    const dir = fresh();
    const name = "registry/snapshot/v2-chunked/export.tar";
    const bytes = Buffer.from(readGoVector(name));
    bytes[bytes.length - 1] = 1;
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(bytes));
    expect(manifestProblems(dir)).toEqual([`${name}: sha256 ${sha256Hex(bytes)}, SHA256SUMS says ${digestOf(name)} (edited?)`]);
  });

  it("names a vector added, one removed, and one stored plain against the rule", () => {
    const dir = fresh();
    writeFileSync(path.join(dir, "registry/extra.json"), "{}");
    rmSync(path.join(dir, "crds/cocoonset.cocoonstack.io_cocoonhibernations.yaml"));
    const tar = "registry/snapshot/v1-basic/stream.tar";
    writeFileSync(path.join(dir, tar), readGoVector(tar));
    rmSync(path.join(dir, `${tar}.gz`));
    expect(manifestProblems(dir)).toEqual([
      "registry/extra.json: not in SHA256SUMS (added without npm run vectors:refresh?)",
      `${tar}: stored plain, the rule says gzipped for 189952 bytes`,
      "crds/cocoonset.cocoonstack.io_cocoonhibernations.yaml: in SHA256SUMS, missing from the tree (removed?)",
    ]);
  });

  it("names a tree over the budget", () => {
    const dir = fresh();
    const before = treeBytes(dir);
    const padding = Buffer.alloc(SIZE_BUDGET_BYTES - before + 1, "x");
    writeFileSync(
      path.join(dir, "reference/go-contract.md"),
      Buffer.concat([readFileSync(path.join(dir, "reference/go-contract.md")), padding]),
    );
    const problems = manifestProblems(dir);
    expect(problems).toHaveLength(2);
    expect(problems[1]).toBe(`the tree holds ${SIZE_BUDGET_BYTES + 1} bytes, over the budget of ${SIZE_BUDGET_BYTES}`);
  });
});
