/**
 * Reads the exported Go identifiers that `go-contract.md` (the Go v0.3.0 reference) lists, section by
 * section, so the Go → TS map can be checked against the reference instead of against memory.
 */

/** One exported Go identifier: its package (as imported under `cocoon-common/`) and its name. */
export interface GoIdentifier {
  readonly pkg: string;
  /** `Name`, or `Type.Method` for a method. */
  readonly name: string;
}

/** The key a map row and a reference identifier share: `meta.ReadHibernateState`, `k8s/admission.Serve`. */
export const goKey = (id: GoIdentifier): string => `${id.pkg}.${id.name}`;

const IDENT = String.raw`[A-Z][A-Za-z0-9]*`;
const FIRST_CELL = new RegExp(String.raw`^\| \x60(${IDENT})`);
// The operator's import aliases in §6.1.
const ALIASES: Readonly<Record<string, string>> = { cocoonv1: "apis/v1", meta: "meta", commonk8s: "k8s", commonlog: "log", oci: "oci" };
// §5 names Go packages in prose; a qualified name outside these (`io.Writer`) is the standard library.
const COCOON_PACKAGES = new Set(["snapshot", "oci", "manifest", "ociutil", "cloudimg", "httpx", "log"]);

/** Splits the document into its `##`/`###` sections, keyed by their number ("1.2", "3", ...). */
function sections(markdown: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of markdown.split("\n")) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (heading?.[1] !== undefined) {
      current = [];
      out.set(heading[1], current);
    } else {
      current.push(line);
    }
  }
  return out;
}

function section(all: Map<string, string[]>, id: string): string[] {
  const lines = all.get(id);
  if (lines === undefined) throw new Error(`go-contract.md has no section ${id}: the reference changed shape, update this parser`);
  return lines;
}

/** The first cell of every table row that starts with a backticked exported identifier. */
function firstCells(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const name = FIRST_CELL.exec(line)?.[1];
    return name === undefined ? [] : [name];
  });
}

/** §1.2: each enum type, its constants (`…Running` abbreviates `<Type>Running`) and its IsValid/Default methods. */
function enumRows(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const cells = line.split(" | ");
    const type = FIRST_CELL.exec(line)?.[1];
    if (type === undefined || cells.length < 4) continue;
    out.push(type);
    for (const match of (cells[1] ?? "").matchAll(new RegExp(String.raw`\x60(…)?(${IDENT})="`, "g"))) {
      out.push(match[1] === undefined ? (match[2] ?? "") : `${type}${match[2] ?? ""}`);
    }
    if (cells[2]?.startsWith("yes")) out.push(`${type}.IsValid`);
    if (cells[3]?.includes("cmp.Or")) out.push(`${type}.Default`);
  }
  return out;
}

/** Bold code spans naming an identifier: `**\`CocoonSet\`**` (§1.3) or `**\`ReadHibernateState(pod) bool\`**` (§2.3). */
function boldNames(lines: readonly string[], atLineStart: boolean): string[] {
  const bold = new RegExp(String.raw`\*\*\x60(${IDENT}(?:\.${IDENT})?)[\x60(]`, "g");
  return lines.filter((line) => !atLineStart || line.startsWith("**`")).flatMap((line) => [...line.matchAll(bold)].map((m) => m[1] ?? ""));
}

/** §5: the summary of the other packages, up to the list of what the operator calls. */
function otherPackages(lines: readonly string[]): GoIdentifier[] {
  const out: GoIdentifier[] = [];
  let pkg = "";
  for (const line of lines) {
    if (line.startsWith("**The operator uses only")) break;
    const opener = /^(?:- )?\x60([a-z]+)[\x60.]/.exec(line)?.[1];
    if (opener !== undefined) pkg = opener;
    const span = new RegExp(String.raw`\x60(?:([a-z]+)\.)?(${IDENT}(?:\.${IDENT})?)(?:\([^\x60]*\))?\x60`, "g");
    for (const m of line.matchAll(span)) {
      const qualifier = m[1] ?? pkg;
      if (COCOON_PACKAGES.has(qualifier)) out.push({ pkg: qualifier, name: m[2] ?? "" });
    }
  }
  return out;
}

/** §6.1: identifiers the operator names, qualified with its import aliases. */
function operatorUses(lines: readonly string[]): GoIdentifier[] {
  return lines.flatMap((line) => {
    const m = new RegExp(String.raw`^\| \x60([a-z0-9]+)\.(${IDENT})\x60`).exec(line);
    const pkg = m?.[1] === undefined ? undefined : ALIASES[m[1]];
    return pkg === undefined || m?.[2] === undefined ? [] : [{ pkg, name: m[2] }];
  });
}

/**
 * Every exported Go identifier the reference lists, once each, in document order.
 *
 * Methods are `Type.Method`; the generated DeepCopy family (§1.5) is listed once per method, as
 * `T.DeepCopy`, because it exists on every API type alike.
 */
export function contractIdentifiers(markdown: string): GoIdentifier[] {
  const all = sections(markdown);
  const found: GoIdentifier[] = [];
  const add = (pkg: string, names: readonly string[]): void => {
    for (const name of names) found.push({ pkg, name });
  };
  add("apis/v1", firstCells(section(all, "1.1")));
  add("apis/v1", enumRows(section(all, "1.2")));
  add("apis/v1", boldNames(section(all, "1.3"), false));
  add(
    "apis/v1",
    [
      ...section(all, "1.5")
        .join("\n")
        .matchAll(/\x60(DeepCopy\w*)\(/g),
    ].map((m) => `T.${m[1] ?? ""}`),
  );
  add("meta", firstCells(section(all, "2.1")));
  add("meta", firstCells(section(all, "2.2")));
  add("meta", boldNames(section(all, "2.3"), true));
  add("k8s", firstCells(section(all, "3")));
  add("k8s/admission", firstCells(section(all, "4")));
  found.push(...otherPackages(section(all, "5")), ...operatorUses(section(all, "6.1")));
  const seen = new Set<string>();
  return found.filter((id) => !seen.has(goKey(id)) && seen.add(goKey(id)));
}
