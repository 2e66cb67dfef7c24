/**
 * The Go → TS map in docs/go-to-ts.md is complete and true: every Go identifier of the reference
 * (`test/fixtures/go/reference/go-contract.md`, copied from the anchors by `npm run vectors:refresh`)
 * has a row, every row names exports its entry point really has (values imported at run time, types
 * through the compiler) in the file it says, and every row without a twin says why.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { coverageProblems, isPending, rowProblems } from "../scripts/go-to-ts/check-map.js";
import { contractIdentifiers, goKey } from "../scripts/go-to-ts/contract-identifiers.js";
import { entryPoints, type EntryPoint } from "../scripts/go-to-ts/entry-exports.js";
import { parseMap, rewriteTsFiles, type MapRow } from "../scripts/go-to-ts/map-table.js";
import { readGoText } from "../src/internal/go-vectors.test-util.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rows = parseMap(readFileSync(path.join(root, "docs/go-to-ts.md"), "utf8"));
const entries = new Map(entryPoints(root).map((e) => [e.subpath, e]));
const modules = new Map<string, Record<string, unknown>>();
for (const entry of entries.values()) modules.set(entry.subpath, (await import(path.join(root, entry.source))) as Record<string, unknown>);
const pending = rows.filter((row) => isPending(row, entries));

describe("docs/go-to-ts.md against the entry points", () => {
  it("has one table row per Go identifier, 229 in all", () => {
    expect(rows).toHaveLength(229);
  });

  it("names, for every row, exports that exist in the TS file it lists, or a reason for their absence", () => {
    const problems = rows.filter((row) => !isPending(row, entries)).flatMap((row) => rowProblems(row, entries, modules.get(row.entry)));
    expect(problems).toEqual([]);
  });

  if (pending.length > 0) {
    const waiting = [...new Set(pending.map((row) => row.entry))].join(", ");
    it.skip(`${pending.length} rows on ${waiting} wait until package.json exports that entry point`, () => {});
  }
});

describe("docs/go-to-ts.md against go-contract.md", () => {
  const reference = contractIdentifiers(readGoText("reference/go-contract.md"));

  it("reads every exported Go identifier of the reference, package by package", () => {
    const perPackage: Record<string, number> = {};
    for (const id of reference) perPackage[id.pkg] = (perPackage[id.pkg] ?? 0) + 1;
    expect(perPackage).toEqual({
      "apis/v1": 80,
      meta: 87,
      k8s: 21,
      "k8s/admission": 6,
      snapshot: 10,
      oci: 6,
      manifest: 5,
      ociutil: 6,
      cloudimg: 2,
      httpx: 5,
      log: 1,
    });
    expect(reference.map(goKey)).toEqual(
      expect.arrayContaining([
        "meta.AnnotationVNCPort",
        "apis/v1.CocoonSetPhaseRunning",
        "meta.LifecycleStatus.Snapshot",
        "k8s/admission.Serve",
      ]),
    );
  });

  it("has a row for each of them, once, and no row the reference does not list", () => {
    expect(coverageProblems(reference, rows)).toEqual([]);
  });
});

const entry = (names: Record<string, { value?: boolean; type?: boolean; file: string }>): EntryPoint => ({
  subpath: "./meta",
  source: "src/meta/index.ts",
  names: new Map(Object.entries(names).map(([name, n]) => [name, { value: n.value ?? true, type: n.type ?? false, file: n.file }])),
});
const row = (overrides: Partial<MapRow>): MapRow => ({
  line: 7,
  pkg: "meta",
  go: "ReadHibernateState",
  goFile: "hibernate.go",
  entry: "./meta",
  tsNames: [{ kind: "value", name: "readHibernateState" }],
  tsFiles: ["src/meta/hibernate.ts"],
  note: "",
  ...overrides,
});

describe("the map checks", () => {
  const meta = new Map([
    [
      "./meta",
      entry({
        readHibernateState: { file: "src/meta/hibernate.ts" },
        Annotation: { file: "src/meta/keys.ts" },
        VMSpec: { value: false, type: true, file: "src/meta/vmspec.ts" },
      }),
    ],
  ]);

  it("accept a row whose export exists in the listed file", () => {
    expect(rowProblems(row({}), meta, { readHibernateState: () => false })).toEqual([]);
  });

  it("report an identifier of the reference with no row, a duplicate row and a row the reference lacks", () => {
    const reference = [
      { pkg: "meta", name: "ReadHibernateState" },
      { pkg: "meta", name: "PodKey" },
    ];
    expect(coverageProblems(reference, [row({}), row({ line: 8 }), row({ line: 9, go: "Gone" })])).toEqual([
      "docs/go-to-ts.md:8 (meta.ReadHibernateState): a second row for the same Go identifier",
      "docs/go-to-ts.md:9 (meta.Gone): go-contract.md does not list this Go identifier",
      "meta.PodKey: listed in go-contract.md, missing from docs/go-to-ts.md",
    ]);
  });

  it("report a missing export, a type used as a value and a member that does not exist at run time", () => {
    const names = [
      { kind: "value", name: "readHibernate" },
      { kind: "value", name: "VMSpec" },
      { kind: "member", name: "Annotation", member: "Hibernat" },
    ] as const;
    expect(rowProblems(row({ tsNames: names }), meta)).toEqual([
      "docs/go-to-ts.md:7 (meta.ReadHibernateState): ./meta does not export readHibernate",
      "docs/go-to-ts.md:7 (meta.ReadHibernateState): VMSpec is a type only; write `type VMSpec`",
    ]);
    expect(rowProblems(row({ tsNames: [names[2]] }), meta, { Annotation: { Hibernate: "vm.cocoonstack.io/hibernate" } })).toEqual([
      "docs/go-to-ts.md:7 (meta.ReadHibernateState): Annotation.Hibernat does not exist at run time",
    ]);
  });

  it("report a stale TS file and say how to refresh it", () => {
    expect(rowProblems(row({ tsFiles: ["src/meta/old.ts"] }), meta, { readHibernateState: () => false })).toEqual([
      "docs/go-to-ts.md:7 (meta.ReadHibernateState): TS file says src/meta/old.ts, declared in src/meta/hibernate.ts; run `npm run map:go-to-ts`",
    ]);
  });

  it("report an absence without a reason, and an absence an entry point now contradicts", () => {
    expect(rowProblems(row({ go: "PodKey", entry: "", tsNames: [], tsFiles: [] }), meta)).toEqual([
      "docs/go-to-ts.md:7 (meta.PodKey): no TS twin and no reason in Note",
    ]);
    expect(rowProblems(row({ entry: "", tsNames: [], tsFiles: [], note: "not ported" }), meta)).toEqual([
      "docs/go-to-ts.md:7 (meta.ReadHibernateState): says there is no TS twin, but ./meta exports readHibernateState",
    ]);
  });

  it("report a TS import that is not an entry point", () => {
    expect(rowProblems(row({ entry: "./metta" }), meta)).toEqual([
      'docs/go-to-ts.md:7 (meta.ReadHibernateState): TS import "./metta" is not an entry point in package.json exports',
    ]);
  });
});

describe("parseMap and rewriteTsFiles", () => {
  const markdown = [
    "## `meta`",
    "",
    "| Go | Go file | TS import | TS name | TS file | Note |",
    "|---|---|---|---|---|---|",
    "| `VMSpec.Apply` | vmspec.go | `./meta` | `applyVMSpec`, `type VMSpec` | src/old.ts |  |",
    "| `HibernateState` | hibernate.go | — | — | — | a bool |",
    "",
    "| not | a | map |",
  ].join("\n");

  it("read the Go package from the heading and every cell of a row", () => {
    expect(parseMap(markdown)).toEqual([
      {
        line: 5,
        pkg: "meta",
        go: "VMSpec.Apply",
        goFile: "vmspec.go",
        entry: "./meta",
        tsNames: [
          { kind: "value", name: "applyVMSpec" },
          { kind: "type", name: "VMSpec" },
        ],
        tsFiles: ["src/old.ts"],
        note: "",
      },
      { line: 6, pkg: "meta", go: "HibernateState", goFile: "hibernate.go", entry: "", tsNames: [], tsFiles: [], note: "a bool" },
    ]);
  });

  it("rewrite only the TS file cells", () => {
    const rewritten = rewriteTsFiles(markdown, (r) => (r.tsNames.length === 0 ? [] : ["src/meta/vmspec.ts"]));
    expect(rewritten).toBe(markdown.replace("src/old.ts", "src/meta/vmspec.ts"));
  });
});
