/**
 * The generated scenarios compared with the server, and the stored objects they need: creates of
 * both kinds, `/status` updates of both kinds, and updates of both kinds (the transition rules).
 *
 * @module
 */
import type fc from "fast-check";
import { API_VERSION, Kind } from "../../../src/apis/v1/index.js";
import type { ControlPlaneConnection } from "../../../src/testing/index.js";
import { createApiClient, type ApiClient, type Plural } from "./api-client.js";
import { anyCocoonHibernation } from "./arbitraries-hibernation.js";
import { anyCocoonSet } from "./arbitraries-cocoonset.js";
import { anyStatus } from "./arbitraries-status.js";
import { STORED_HIBERNATION_SPEC, STORED_SET_SPECS, anyUpdate } from "./arbitraries-update.js";
import { createCheck, statusCheck, updateCheck } from "./checks.js";
import { cocoonSetEdgeCases } from "./edge-cases-cocoonset.js";
import { metadataEdgeCases } from "./edge-cases-metadata.js";
import { cocoonSetUpdateEdgeCases, hibernationEdgeCases, hibernationUpdateEdgeCases, statusEdgeCases } from "./edge-cases-other.js";
import { runScenario, runTable, type CaseCheck, type RunOptions, type ScenarioReport, type TableReport } from "./runner.js";

/** The generated scenarios, in the order they run. */
export const SCENARIO_NAMES = [
  "CocoonSet create",
  "CocoonHibernation create",
  "CocoonSet /status",
  "CocoonHibernation /status",
  "CocoonSet update",
  "CocoonHibernation update",
] as const;

/** The tables of named edge cases, in the order they run. */
export const TABLE_NAMES = [
  "CocoonSet create",
  "metadata",
  "CocoonHibernation create",
  "CocoonSet /status",
  "CocoonSet update",
  "CocoonHibernation update",
] as const;

/** A generated scenario: fast-check cases of one kind of request, compared one by one. */
export interface Scenario {
  readonly name: (typeof SCENARIO_NAMES)[number];
  /** Share of the run's cases, relative to the other scenarios. */
  readonly weight: number;
  run(options: RunOptions): Promise<ScenarioReport>;
}

/** A table of named edge cases of one kind of request. */
export interface Table {
  readonly name: (typeof TABLE_NAMES)[number];
  run(concurrency: number): Promise<TableReport>;
}

/** Scenarios, tables and the clients they use. */
export interface ScenarioSet {
  readonly scenarios: readonly Scenario[];
  readonly tables: readonly Table[];
  /** Dry-run client of the namespace the creates go to (for the pinned-difference tests). */
  readonly creates: ApiClient;
  readonly close: () => void;
}

const scenario = <C>(name: Scenario["name"], weight: number, arbitrary: fc.Arbitrary<C>, check: CaseCheck<C>): Scenario => ({
  name,
  weight,
  run: (options) => runScenario(arbitrary, check, options),
});

const table = <C>(name: Table["name"], cases: readonly (readonly [string, C])[], check: CaseCheck<C>): Table => ({
  name,
  run: (concurrency) => runTable(cases, check, concurrency),
});

/** Stores (for real) one object of `plural` named `name` with `spec`, and returns the server's copy. */
async function store(client: ApiClient, plural: Plural, name: string, spec: unknown): Promise<Record<string, unknown>> {
  const kind = plural === "cocoonsets" ? Kind.CocoonSet : Kind.CocoonHibernation;
  const answer = await client.create(plural, { apiVersion: API_VERSION, kind, metadata: { name }, spec }, false);
  if (answer.status !== 201) throw new Error(`storing ${plural}/${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Record<string, unknown>;
}

/**
 * Builds the scenarios against `connection`: creates go to the namespace `createNamespace()` gives
 * first (dry run: nothing is stored there), the objects updated are stored in a second one, so
 * generated names never collide with them.
 */
export async function buildScenarios(
  connection: ControlPlaneConnection,
  createNamespace: (prefix: string) => Promise<string>,
): Promise<ScenarioSet> {
  const createNs = await createNamespace("schema-create");
  const storedNs = await createNamespace("schema-stored");
  const creates = createApiClient(connection, createNs);
  const updates = createApiClient(connection, storedNs);
  const sets = await Promise.all(STORED_SET_SPECS.map((spec, index) => store(updates, "cocoonsets", `set-${index}`, spec)));
  const hibernation = await store(updates, "cocoonhibernations", "hibernation-0", STORED_HIBERNATION_SPEC);
  const statusTarget = sets[0] ?? {};
  const scenarios = [
    scenario("CocoonSet create", 6, anyCocoonSet(createNs), createCheck(creates, "cocoonsets")),
    scenario("CocoonHibernation create", 2, anyCocoonHibernation(createNs), createCheck(creates, "cocoonhibernations")),
    scenario("CocoonSet /status", 3, anyStatus("cocoonsets"), statusCheck(updates, "cocoonsets", statusTarget)),
    scenario("CocoonHibernation /status", 1, anyStatus("cocoonhibernations"), statusCheck(updates, "cocoonhibernations", hibernation)),
    scenario("CocoonSet update", 3, anyUpdate("cocoonsets"), updateCheck(updates, "cocoonsets", sets)),
    scenario("CocoonHibernation update", 1, anyUpdate("cocoonhibernations"), updateCheck(updates, "cocoonhibernations", [hibernation])),
  ];
  const tables = [
    table("CocoonSet create", cocoonSetEdgeCases(), createCheck(creates, "cocoonsets")),
    table("metadata", metadataEdgeCases(createNs), createCheck(creates, "cocoonsets")),
    table("CocoonHibernation create", hibernationEdgeCases(), createCheck(creates, "cocoonhibernations")),
    table("CocoonSet /status", statusEdgeCases(), statusCheck(updates, "cocoonsets", statusTarget)),
    table("CocoonSet update", cocoonSetUpdateEdgeCases(), updateCheck(updates, "cocoonsets", sets)),
    table("CocoonHibernation update", hibernationUpdateEdgeCases(), updateCheck(updates, "cocoonhibernations", [hibernation])),
  ];
  const close = () => [creates, updates].forEach((client) => client.close());
  return { scenarios, tables, creates, close };
}
