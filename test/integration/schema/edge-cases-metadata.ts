/**
 * Named edge cases of `metadata.name` and `metadata.generateName` on create, as the apiserver
 * checks them (DNS-1123 subdomain; a generateName may end in `-` and is cut to 58 characters
 * before 5 random ones are appended).
 *
 * @module
 */
import { API_VERSION, Kind } from "../../../src/apis/v1/index.js";
import type { EdgeCase } from "./edge-cases-cocoonset.js";

const withMeta = (metadata: Record<string, unknown>) => ({
  apiVersion: API_VERSION,
  kind: Kind.CocoonSet,
  metadata,
  spec: { agent: { image: "img" } },
});
const show = (v: string): string => (v.length > 20 ? `${v.slice(0, 3)}…(${v.length})` : JSON.stringify(v));

const NAMES = [
  "demo",
  "0",
  "a.b.c",
  "a-b",
  "x".repeat(253),
  "x".repeat(254),
  "Demo",
  "a.",
  ".a",
  "a..b",
  "a-",
  "-a",
  "a_b",
  "a b",
  "ä",
  "a.-b",
];
const PREFIXES = [
  "demo-",
  "a",
  "a.",
  "-",
  "Demo-",
  "a_",
  "x".repeat(58),
  "x".repeat(59),
  "x".repeat(253),
  "x".repeat(254),
  `${"x".repeat(57)}.`,
  "a--",
];

/** Every named metadata case (of a CocoonSet; the apiserver checks both kinds the same way). */
export function metadataEdgeCases(namespace: string): EdgeCase[] {
  return [
    ...NAMES.map((name): EdgeCase => [`name = ${show(name)}`, withMeta({ name })]),
    ...PREFIXES.map((generateName): EdgeCase => [`generateName = ${show(generateName)}`, withMeta({ generateName })]),
    ["name empty", withMeta({ name: "" })],
    ["name and generateName missing", withMeta({})],
    ["name empty, generateName empty", withMeta({ name: "", generateName: "" })],
    ["name wins over a bad generateName", withMeta({ name: "demo", generateName: "Demo-" })],
    ["namespace of the request", withMeta({ name: "demo", namespace })],
  ];
}
