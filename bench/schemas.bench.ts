/**
 * Schema speed against the named peer, ajv compiled from the same CRD schema (which cannot check
 * CEL rules). Run: npm run bench:schemas
 */
import { Ajv } from "ajv";
import { CocoonSetSchema, cocoonSetCRD, validateCocoonSetUpdate } from "../src/apis/v1/index.js";
import { nsPerCall, row } from "./measure.js";

const set = {
  apiVersion: "cocoonset.cocoonstack.io/v1",
  kind: "CocoonSet",
  metadata: { name: "demo", namespace: "team-a", labels: { app: "demo" }, generation: 7 },
  spec: {
    snapshotPolicy: "main-only",
    nodePool: "gpu",
    agent: {
      image: "ghcr.io/cocoonstack/agent:1.4",
      replicas: 2,
      storage: "20Gi",
      resources: { requests: { cpu: "2", memory: "4Gi" }, limits: { cpu: 4, memory: "8Gi" } },
      envFrom: [{ secretRef: { name: "agent-env" } }],
    },
    toolboxes: [
      { name: "browser", image: "ghcr.io/cocoonstack/browser:2", os: "linux", vncPort: 5900 },
      { name: "win", image: "ghcr.io/cocoonstack/win:11", os: "windows", mode: "static", staticIP: "10.0.0.9" },
    ],
  },
  status: {
    observedGeneration: 7,
    phase: "Running",
    readyAgents: 3,
    desiredAgents: 3,
    readyToolboxes: 2,
    desiredToolboxes: 2,
    agents: [0, 1, 2].map((slot) => ({ slot, role: slot === 0 ? "main" : "sub-agent", podName: `demo-${slot}` })),
    conditions: [{ type: "Ready", status: "True", reason: "AllReady", message: "", lastTransitionTime: "2026-11-29T10:00:00Z" }],
  },
};

const schema = cocoonSetCRD.spec.versions[0]?.schema?.openAPIV3Schema;
const ajv = new Ajv({ strict: false, logger: false, validateFormats: false });
const ajvValidate = ajv.compile(schema as object);
const ajvDefaults = new Ajv({ strict: false, logger: false, validateFormats: false, useDefaults: true }).compile(schema as object);
if (!ajvValidate(set) || !CocoonSetSchema.safeParse(set).success) throw new Error("fixture must be valid for both");

console.log(`node ${process.version}; median of 7 rounds`);
const peer = nsPerCall(() => ajvValidate(set));
row("ajv: validate CocoonSet (no defaults, no CEL) [peer]", peer);
row(
  "ajv: structuredClone + validate with defaults",
  nsPerCall(() => ajvDefaults(structuredClone(set))),
  peer,
);
row(
  "zod: CocoonSetSchema.safeParse (defaults, CEL, pruning)",
  nsPerCall(() => CocoonSetSchema.safeParse(set)),
  peer,
);
const parsed = CocoonSetSchema.parse(set);
row(
  "zod: validateCocoonSetUpdate (transition rules)",
  nsPerCall(() => validateCocoonSetUpdate(parsed, parsed)),
  peer,
);
