/**
 * zod's CocoonSetSchema against ajv compiled from the generated CRD, doing the same work: clone the
 * input, apply the CRD defaults, prune unknown fields, validate, report all errors (see ajv-crd.ts).
 * Inputs (schema-fixtures.ts): a realistic set, a large one (50 toolboxes) and invalid ones. Before
 * timing, both sides must agree on every verdict (except where ajv cannot run the CEL rule) and
 * return equal copies of the valid sets. Then every row is timed once per round, a fixture's rows
 * back to back in a rotating order; a row's ratio is taken to its peer in the same round.
 * Prints the figures and writes the `schemas` section of BENCHMARKS.md.
 *
 *   npm run bench:schemas                      # 7 rounds of about 200 ms per row, after 2 untimed
 *   npm run bench:schemas -- --rounds 3 --warmup 1 --ms 100
 */
import { isDeepStrictEqual, parseArgs } from "node:util";
import { CocoonSetSchema } from "../src/apis/v1/index.js";
import { ajvParser, ajvValidator } from "./ajv-crd.js";
import { alternateSync, type SyncGroup } from "./alternate-sync.js";
import { writeBenchmarkSection } from "./benchmarks-md.js";
import { median } from "./measure-async.js";
import { formatNs, loadLine, runLine, spread } from "./run-info.js";
import { schemaFixtures, UNKNOWN_FIELD } from "./schema-fixtures.js";

const { values } = parseArgs({
  options: { rounds: { type: "string", default: "7" }, warmup: { type: "string", default: "2" }, ms: { type: "string", default: "200" } },
});
const ROUNDS = Number(values.rounds);
const WARMUP_ROUNDS = Number(values.warmup);
const BUDGET_MS = Number(values.ms);
const WINDOWS = 3;

const ajvParse = ajvParser();
const ajvValidate = ajvValidator();

for (const fixture of schemaFixtures) {
  const zod = CocoonSetSchema.safeParse(fixture.value);
  const ajv = ajvParse(fixture.value);
  const ajvExpected = fixture.ajvBlindTo === undefined ? fixture.valid : true;
  if (zod.success !== fixture.valid || ajv.success !== ajvExpected || ajvValidate(fixture.value) !== ajvExpected) {
    throw new Error(`${fixture.name}: zod ${String(zod.success)}, ajv ${String(ajv.success)}; expected valid = ${String(fixture.valid)}`);
  }
  if (zod.success && ajv.success && !isDeepStrictEqual(zod.data, ajv.data)) {
    throw new Error(`${fixture.name}: zod and ajv return different copies; they do not do the same work`);
  }
  if (zod.success && JSON.stringify(zod.data).includes(UNKNOWN_FIELD)) throw new Error(`${fixture.name}: the unknown field was not pruned`);
}

const PEER = "ajv: clone + defaults + prune + validate [peer]";
const groups: SyncGroup[] = schemaFixtures.map((fixture) => ({
  name: fixture.ajvBlindTo === undefined ? fixture.name : `${fixture.name} †`,
  rows: [
    { name: PEER, run: () => ajvParse(fixture.value) },
    { name: "zod: CocoonSetSchema.safeParse", run: () => CocoonSetSchema.safeParse(fixture.value) },
    {
      name: "zod: safeParse, then read `error.issues` (messages built)",
      run: () => CocoonSetSchema.safeParse(fixture.value).error?.issues,
    },
    { name: "ajv: validate only (does less: no clone, defaults, pruning)", run: () => ajvValidate(fixture.value) },
  ],
}));
const figures = alternateSync(groups, { rounds: ROUNDS, warmupRounds: WARMUP_ROUNDS, budgetMs: BUDGET_MS, windows: WINDOWS });

const header = [
  runLine(),
  `${ROUNDS} alternated rounds of about ${BUDGET_MS} ms per row (median of ${WINDOWS} windows), after ${WARMUP_ROUNDS} untimed ones; a ratio is the per-round ns of a row over its peer's, median [min–max]. ${loadLine()}`,
];
const table = [
  "| fixture | variant | ns per call, median [min–max] | / peer |",
  "|---|---|---|---|",
  ...groups.flatMap((group, g) =>
    group.rows.map((row, r) => {
      const { ns, ratio } = figures[g]?.[r] ?? { ns: [], ratio: [] };
      const range = `${formatNs(median(ns))} [${formatNs(Math.min(...ns))}–${formatNs(Math.max(...ns))}]`;
      return `| ${r === 0 ? group.name : ""} | ${row.name} | ${range} | ${r === 0 ? "1.00" : spread(ratio)} |`;
    }),
  ),
];
const notes = `Both sides start from the same CRD: ajv compiles the generated \`openAPIV3Schema\` (\`bench/ajv-crd.ts\`), with
\`useDefaults\`, \`allErrors\`, the apiserver's date-time check, and \`additionalProperties: false\` added where the
apiserver prunes (objects that list their properties), so \`removeAdditional\` prunes what it prunes. The valid
fixtures carry unknown fields; before timing, zod's parsed copy and ajv's pruned, defaulted clone were checked
deep-equal, and both sides' verdicts checked against the expected ones (valid for the first two fixtures,
invalid for the others).

zod also does what ajv cannot: the CRD's CEL rule (\`hibernatePolicy=release requires agent.replicas=0 and no
toolboxes\`, gated as the apiserver gates it), the apiserver's checks of \`metadata.name\` and \`namespace\`, and
the uniqueness of list-map keys. † ajv cannot check the CEL rule and accepts this set, which zod rejects: that
fixture's ratios compare unequal work. zod builds an error on its first read, as ajv does not: the row that reads
\`error.issues\` adds that work (the messages) on the invalid fixtures. The validate-only row is information: it
does less than zod's parse (no clone, no defaults, no pruning, no CEL). \`validateCocoonSetUpdate\` is not timed: a few property reads, no peer.`;

console.log(`${header.join("\n")}\n\n${table.join("\n")}\n\n${notes}`);
writeBenchmarkSection(
  "schemas",
  "Schemas: zod against ajv",
  `zod's \`CocoonSetSchema.safeParse\` against ajv doing the same work, on the fixtures of
\`bench/schema-fixtures.ts\`. Reproduce with:

\`\`\`sh
npm run bench:schemas -- --rounds ${ROUNDS} --warmup ${WARMUP_ROUNDS} --ms ${BUDGET_MS}
\`\`\`

${header.join("\n")}

${table.join("\n")}

${notes}
`,
);
