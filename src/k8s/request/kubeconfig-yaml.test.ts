import fc from "fast-check";
import { parse, stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { parseKubeconfigYAML } from "./kubeconfig-yaml.js";

/** A kubeconfig as kubectl writes it (Go's yaml.v2: sequences at their key's indentation). */
const KUBECTL = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
    server: https://127.0.0.1:6443
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    namespace: "default"
    user: kind-kind
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=
`;

describe("parseKubeconfigYAML", () => {
  it("reads a kubeconfig as kubectl writes it, as yaml does", () => {
    expect(parseKubeconfigYAML(KUBECTL)).toEqual(parse(KUBECTL));
  });

  it("reads sequences indented under their key, comments, a document start, quoted and typed scalars", () => {
    const text = `---\n# comment\na:\n  - x: '1'\n    y: "a\\"b\\\\c"\n  -\n    z: true\nb: ~\nc: 42\nd: []\ne:\n`;
    expect(parseKubeconfigYAML(text)).toEqual(parse(text));
    expect(parseKubeconfigYAML(text)).toEqual({ a: [{ x: "1", y: 'a"b\\c' }, { z: true }], b: null, c: 42, d: [], e: null });
  });

  it.each([
    ["an anchor", "a: &x 1\nb: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["a block scalar", "a: |\n  x\n"],
    ["a flow mapping with content", "a: {b: 1}\n"],
    ["a multi-line plain scalar", "a: x\n  y\n"],
    ["a comment after a value", "a: x # c\n"],
    ["a YAML 1.1 boolean", "a: yes\n"],
    ["a float", "a: 1.5\n"],
    ["a leading zero", "a: 0123\n"],
    ["an escape it does not know", 'a: "\\u0041"\n'],
    ["a lone backslash", 'a: "x\\"\n'],
    ["a tab in the indentation", "a:\n\tb: 1\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a second document", "a: 1\n---\nb: 2\n"],
    ["a quoted key", '"a": 1\n'],
  ])("leaves %s to the yaml package (undefined)", (_what, text) => {
    expect(parseKubeconfigYAML(text)).toBeUndefined();
  });

  it("never disagrees with yaml: on any document yaml.stringify writes, it reads what yaml reads, or gives undefined", () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.stringMatching(/^[A-Za-z0-9+/=:._~-]{1,40}$/),
      fc.constantFrom("true", "false", "null", "~", "yes", "1", "-1", "0x1", "1e3", "a: b", "#x", "x #y", "'q'", '"q"', "", " s "),
    );
    const scalar = fc.oneof(text, fc.boolean(), fc.constant(null), fc.integer({ min: -1e6, max: 1e6 }));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("map"), tie("list")),
      map: fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      list: fc.array(tie("value"), { maxLength: 3 }),
    }));
    const document = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 });
    let read = 0;
    fc.assert(
      fc.property(document, fc.boolean(), (doc, indentSeq) => {
        const yamlText = stringify(doc, { indentSeq });
        const ours = parseKubeconfigYAML(yamlText);
        if (ours !== undefined) {
          read++;
          expect(ours).toEqual(parse(yamlText));
        }
      }),
      { numRuns: 2_000 },
    );
    expect(read).toBeGreaterThan(500); // most documents stay on the fast path
  });
});
