// A kubeconfig as kubectl and client-go write it is block YAML with plain and quoted scalars: this
// reads that much without the `yaml` package, which costs a long-running process about 13 MiB of
// RSS once loaded. Anything beyond it (anchors, tags, block scalars, flow collections with
// content, multi-line scalars, escapes it does not know) gives `undefined`, and the caller parses
// the file with `yaml`: never a guess.

/** A line of the document: its indentation and its text (without the indentation). */
interface Line {
  indent: number;
  text: string;
}

class Unsupported extends Error {}

const KEY = /^([A-Za-z0-9_./-]+):(?: (.*))?$/;

/**
 * The document `text` as `yaml.parse` would read it, when it is within the subset kubeconfig
 * writers use; `undefined` otherwise.
 *
 * @internal
 */
export function parseKubeconfigYAML(text: string): unknown {
  const lines: Line[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const trimmed = raw.trimEnd();
    const body = trimmed.trimStart();
    if (body === "" || body.startsWith("#")) continue;
    const indentation = trimmed.slice(0, trimmed.length - body.length);
    if (indentation.includes("\t")) return undefined;
    if (body === "---" && lines.length === 0) continue;
    lines.push({ indent: indentation.length, text: body });
  }
  try {
    if (lines.length === 0) return null;
    const at = { i: 0 };
    const value = block(lines, at, lines[0]?.indent ?? 0);
    if (at.i !== lines.length) throw new Unsupported();
    return value;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

function block(lines: Line[], at: { i: number }, indent: number): unknown {
  const first = lines[at.i];
  if (first?.indent !== indent) throw new Unsupported();
  return first.text === "-" || first.text.startsWith("- ") ? sequence(lines, at, indent) : mapping(lines, at, indent);
}

function sequence(lines: Line[], at: { i: number }, indent: number): unknown[] {
  const items: unknown[] = [];
  for (let line = lines[at.i]; line?.indent === indent; line = lines[at.i]) {
    if (line.text !== "-" && !line.text.startsWith("- ")) break;
    const rest = line.text.slice(1).trimStart();
    if (rest === "") {
      at.i++;
      const next = lines[at.i];
      items.push(next !== undefined && next.indent > indent ? block(lines, at, next.indent) : null);
    } else if (KEY.test(rest)) {
      // `- key: value` opens a mapping whose keys sit where `key` does.
      const column = indent + (line.text.length - rest.length);
      lines[at.i] = { indent: column, text: rest };
      items.push(mapping(lines, at, column));
    } else {
      items.push(scalar(rest));
      at.i++;
    }
  }
  return items;
}

function mapping(lines: Line[], at: { i: number }, indent: number): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  for (let line = lines[at.i]; line?.indent === indent; line = lines[at.i]) {
    const match = KEY.exec(line.text);
    if (match === null) throw new Unsupported();
    const key = match[1] as string;
    if (Object.hasOwn(map, key) || key === "__proto__") throw new Unsupported();
    const rest = (match[2] ?? "").trim();
    at.i++;
    if (rest !== "") {
      map[key] = rest === "{}" ? {} : rest === "[]" ? [] : scalar(rest);
      continue;
    }
    const next = lines[at.i];
    if (next !== undefined && next.indent > indent) map[key] = block(lines, at, next.indent);
    else if (next?.indent === indent && (next.text === "-" || next.text.startsWith("- "))) map[key] = sequence(lines, at, indent);
    else map[key] = null;
  }
  if ((lines[at.i]?.indent ?? -1) > indent) throw new Unsupported();
  return map;
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t" };

function scalar(text: string): unknown {
  if (text.startsWith('"')) {
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith('"') || !/^(?:[^"\\]|\\["\\/nt])*$/.test(inner)) throw new Unsupported();
    return inner.replace(/\\(.)/g, (_escape, escaped: string) => ESCAPES[escaped] ?? "");
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Unsupported();
    const inner = text.slice(1, -1);
    if (/'(?!')/.test(inner.replaceAll("''", ""))) throw new Unsupported();
    return inner.replaceAll("''", "'");
  }
  // A plain scalar: only what reads the same under every YAML schema.
  if (/[#{}[\],&*!|>%@`"']/.test(text[0] ?? "") || text.includes(": ") || text.includes(" #") || text.endsWith(":"))
    throw new Unsupported();
  if (text === "true" || text === "false") return text === "true";
  if (text === "null" || text === "~") return null;
  if (/^-?(0|[1-9]\d{0,14})$/.test(text)) return Number(text);
  if (/^[-+.\d]/.test(text) || /^(true|false|null|yes|no|on|off|y|n)$/i.test(text)) throw new Unsupported();
  return text;
}
