// Reference parsing against go-containerregistry v0.21.7 (what Go cocoon-common's oci package names
// every manifest and blob with): name.ParseReference with NewTag's and NewDigest's own errors, and
// v1.NewHash's check of an upload digest, on generated reference strings.
import fc from "fast-check";
import { it } from "vitest";
import { checkUploadDigest } from "../../src/oci/digest.js";
import { referenceErrorOf } from "../../src/oci/internal/reference-error.test-util.js";
import { parseDigestReference, parseReference, parseTag } from "../../src/oci/reference.js";
import { CONFORMANCE_TIMEOUT_MS, compareWithGo, describeConformance, expectSame } from "./support/conformance.js";

/** Go's answer; absent fields are omitted (the oracle uses `omitempty`). */
type GoReference = Record<string, string | null>;

function ours(text: string): GoReference {
  const newHashError = referenceErrorOf(() => checkUploadDigest(text));
  try {
    const { kind, string, name, context, registry, repository, identifier, scheme } = parseReference(text);
    return { kind, string, name, context, registry, repository, identifier, scheme, newHashError };
  } catch (err) {
    const error = (err as Error).message;
    return {
      error,
      newTagError: referenceErrorOf(() => parseTag(text)),
      newDigestError: referenceErrorOf(() => parseDigestReference(text)),
      newHashError,
    };
  }
}

/** Whether Go took `text` with a `.` or `..` path component in its repository. */
function climbs(go: GoReference): boolean {
  return typeof go.repository === "string" && go.repository.split("/").some((c) => c === "." || c === "..");
}

const HEX = "0123456789abcdef";
const hex = (length: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...HEX, ...HEX, "A", "g"), minLength: length, maxLength: length });
const registry = fc.oneof(
  fc.constantFrom(
    "",
    "localhost",
    "localhost:5000",
    "localhost:",
    "127.0.0.1",
    "127.0.0.1:5000",
    "127.1.2.3:80",
    "10.0.0.5",
    "172.16.0.1:443",
  ),
  fc.constantFrom(
    "[::1]",
    "[::1]:5000",
    "[fe80::1]:5000",
    "::1",
    "[::1",
    "ghcr.io",
    "GHCR.io",
    "docker.io",
    "index.docker.io",
    "example.com:",
  ),
  fc.constantFrom(
    "a.localhost:9",
    "registry.local",
    "host:port",
    "my_registry:80",
    "u@h.io",
    "h.io:99999",
    "xn--caf-dma.example",
    "h%41.io",
    "a b.io",
  ),
  fc.constantFrom(
    "[::ffff:1.2.3.4]",
    "[1.2.3.4]:5",
    "[fe80::1%25en0]",
    "[::1]]",
    "[:::1]",
    "[0000::1]",
    "[00000::1]",
    "a[.",
    "[::1]x",
    "[::1]:",
    "h]:1",
  ),
  fc.string({ unit: fc.constantFrom(..."abcz09.-_:[]@%"), minLength: 1, maxLength: 12 }),
);
const component = fc.string({ unit: fc.constantFrom(..."abcxyz019._-", ..."ABé ☕"), minLength: 0, maxLength: 10 });
const path = fc.array(component, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
const tag = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."abcXYZ019._-:/ @"), minLength: 0, maxLength: 12 }),
  fc.constantFrom("latest", "hibernate", "t".repeat(128), "t".repeat(129)),
);
const digest = fc.oneof(
  hex(64).map((h) => `sha256:${h}`),
  fc
    .integer({ min: 0, max: 70 })
    .chain((n) => hex(n))
    .map((h) => `sha256:${h}`),
  hex(64),
  hex(128).map((h) => `sha512:${h}`),
  fc.constantFrom("", "sha256:", ":abc", "SHA256:" + "a".repeat(64)),
);
/** `[registry/]path[:tag][@digest]`, each part sometimes malformed, plus free-form text rich in separators. */
const referenceText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(registry, path, fc.option(tag), fc.option(digest))
      .map(([r, p, t, d]) => `${r === "" ? "" : `${r}/`}${p}${t === null ? "" : `:${t}`}${d === null ? "" : `@${d}`}`),
  },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(..."ab0.:/@_-[]%A "), maxLength: 24 }) },
  { weight: 1, arbitrary: digest },
);

describeConformance("references", (oracle) => {
  it(
    "parses reference strings as go-containerregistry does, messages included",
    async () => {
      await compareWithGo<string, GoReference>(oracle(), {
        name: "references",
        arbitrary: referenceText,
        examples: [
          "a[./aa",
          "localhost:5000/vm-1:hibernate",
          "vm-1@sha256:" + "0".repeat(64),
          "repo:tag@sha256:" + "a".repeat(64),
          ":tag",
          "",
          "user:pass@ghcr.io/repo",
          "[::1]:5000/repo",
          "vm-a/../../etc:t",
          "localhost/x/.@sha256:" + "a".repeat(64),
        ],
        numRuns: 20_000,
        request: (text) => ({ op: "reference", args: { text } }),
        check: (text, go) => {
          if (!climbs(go)) {
            expectSame(text, ours(text), go);
            return;
          }
          // Stricter on purpose (docs/differences-from-go.md): a `.` or `..` component go-containerregistry takes is refused.
          const mine = ours(text);
          const refusal = `repository can not contain a "." or ".." path component: ${String(go.repository)}`;
          expectSame(
            text,
            [mine.error, go.kind === "tag" ? mine.newTagError : mine.newDigestError],
            [`could not parse reference: ${text}`, refusal],
          );
        },
      });
    },
    CONFORMANCE_TIMEOUT_MS,
  );
});
