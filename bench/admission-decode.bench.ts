/**
 * Decoding an AdmissionReview body as Go does (`reviewFromText`: a JSON tree with Go's depth limit,
 * the typed admission/v1 decode, `object` parsed for the handler) against the named peer
 * `JSON.parse` of the same text (V8's native parser, what the decoder used before it checked
 * types). Bodies: a typical CREATE review, and reviews whose object holds many items, up to
 * the 10 MiB default body cap.
 *
 * Each figure is the fastest of 9 interleaved rounds, so a loaded machine blurs both sides alike.
 *
 * Run: npm run bench:admission
 */
import { reviewFromText } from "../src/k8s/admission/decode.js";
import { row } from "./measure.js";

/** Fastest ns per call of each function over interleaved rounds: the machine's load hits both alike. */
function interleavedMin(fns: readonly (() => unknown)[], iterations: number, rounds = 9): number[] {
  const best = fns.map(() => Infinity);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, i) => {
      const start = process.hrtime.bigint();
      for (let k = 0; k < iterations; k++) fn();
      best[i] = Math.min(best[i] as number, Number(process.hrtime.bigint() - start) / iterations);
    });
  }
  return best;
}

const review = (object: unknown): string =>
  JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      kind: { group: "cocoonset.cocoonstack.io", version: "v1", kind: "CocoonSet" },
      resource: { group: "cocoonset.cocoonstack.io", version: "v1", resource: "cocoonsets" },
      name: "demo",
      namespace: "ns",
      operation: "CREATE",
      userInfo: { username: "system:serviceaccount:ns:operator", groups: ["system:serviceaccounts", "system:authenticated"] },
      object,
      dryRun: false,
    },
  });

const item = (i: number) => ({
  name: `toolbox-${String(i)}`,
  image: "ghcr.io/cocoonstack/toolbox:1.2.3",
  resources: { limits: { cpu: "500m", memory: "1Gi" } },
});
const bodies: [string, string, number][] = [
  [
    "typical CREATE review",
    review({
      apiVersion: "cocoonset.cocoonstack.io/v1",
      kind: "CocoonSet",
      metadata: { name: "demo" },
      spec: { agent: { image: "img" }, toolboxes: [item(0), item(1)] },
    }),
    5_000,
  ],
  ["1 MiB object", review({ items: Array.from({ length: 9_000 }, (_, i) => item(i)) }), 20],
  ["10 MiB object (the default cap)", review({ items: Array.from({ length: 90_000 }, (_, i) => item(i)) }), 3],
];

for (const [name, text, iterations] of bodies) {
  const [peer, ours] = interleavedMin([() => JSON.parse(text) as unknown, () => reviewFromText(text)], iterations) as [number, number];
  console.log(`${name}: ${(text.length / 1024).toFixed(1)} KiB`);
  row("  JSON.parse (peer)", peer);
  row("  decodeAdmissionReview's decode (Go's rules)", ours, peer);
}

// Growth: the same review with twice the text or twice the nesting. Linear work costs about 2×;
// the decoder runs JSON.parse too, so its growth is read beside JSON.parse's on the same texts.
const grown = (length: number, depth: number): string =>
  new TextDecoder().decode(
    Buffer.from(
      `{"request":{"uid":"u","object":{"blob":"${'ab\\"<'.repeat(length / 5)}","deep":${"[".repeat(depth)}${"]".repeat(depth)}}}}`,
    ),
  );
for (const [what, single, double] of [
  ["twice the text (1,000,000 -> 2,000,000 chars)", grown(1_000_000, 10), grown(2_000_000, 10)],
  ["twice the nesting (2,500 -> 5,000 deep)", grown(10, 2_500), grown(10, 5_000)],
] as const) {
  const [peer1, ours1, peer2, ours2] = interleavedMin(
    [() => JSON.parse(single) as unknown, () => reviewFromText(single), () => JSON.parse(double) as unknown, () => reviewFromText(double)],
    3,
  ) as [number, number, number, number];
  console.log(`growth, ${what}:`);
  console.log(`  JSON.parse (peer)                              ${(peer2 / peer1).toFixed(2)}x`);
  console.log(`  decodeAdmissionReview's decode (Go's rules)    ${(ours2 / ours1).toFixed(2)}x`);
}
