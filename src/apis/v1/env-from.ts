import { z } from "zod";
import { withSharedFailureShape } from "./internal/safe-parse.js";
import { goPointer, goTag } from "./go-tags.js";

/** Builds the `configMapRef`/`secretRef` schema: an atomic map whose `name` defaults to `""`. */
function localObjectRef(kind: "ConfigMap" | "Secret") {
  return z
    .object({
      name: z.string().default("").describe("Name of the referent."),
      optional: goPointer(z.boolean().optional()).describe(`Specify whether the ${kind} must be defined`),
    })
    .meta({ "x-kubernetes-map-type": "atomic" })
    .describe(`The ${kind} to select from`);
}

/** Validates a `corev1.ConfigMapEnvSource` (`envFrom[].configMapRef`); `name` defaults to `""`. */
export const ConfigMapEnvSourceSchema = withSharedFailureShape(localObjectRef("ConfigMap"));
/** A config map env source as stored (`corev1.ConfigMapEnvSource`): the ConfigMap to select from. */
export interface ConfigMapEnvSource {
  /** Name of the referent; `""` when unset. */
  name: string;
  /** Specify whether the ConfigMap must be defined. */
  optional?: boolean | undefined;
}
/** A config map env source as written. */
export type ConfigMapEnvSourceInput = z.input<typeof ConfigMapEnvSourceSchema>;

/** Validates a `corev1.SecretEnvSource` (`envFrom[].secretRef`); `name` defaults to `""`. */
export const SecretEnvSourceSchema = withSharedFailureShape(localObjectRef("Secret"));
/** A secret env source as stored (`corev1.SecretEnvSource`): the Secret to select from. */
export interface SecretEnvSource {
  /** Name of the referent; `""` when unset. */
  name: string;
  /** Specify whether the Secret must be defined. */
  optional?: boolean | undefined;
}
/** A secret env source as written. */
export type SecretEnvSourceInput = z.input<typeof SecretEnvSourceSchema>;

/** Validates a `corev1.EnvFromSource`: one entry of an agent's `envFrom`. */
export const EnvFromSourceSchema = withSharedFailureShape(
  goTag(
    z
      .object({
        configMapRef: goPointer(ConfigMapEnvSourceSchema.optional()),
        prefix: z.string().optional().describe("Optional text to prepend to the name of each environment variable."),
        secretRef: goPointer(SecretEnvSourceSchema.optional()),
      })
      .describe("EnvFromSource represents the source of a set of ConfigMaps or Secrets"),
    { fields: ["prefix", "configMapRef", "secretRef"] },
  ),
);
/** An env-from source as stored (`corev1.EnvFromSource`): the source of a set of ConfigMaps or Secrets. */
export interface EnvFromSource {
  /** The ConfigMap to select from. */
  configMapRef?: ConfigMapEnvSource | undefined;
  /** Optional text to prepend to the name of each environment variable. */
  prefix?: string | undefined;
  /** The Secret to select from. */
  secretRef?: SecretEnvSource | undefined;
}
/** An env-from source as written. */
export type EnvFromSourceInput = z.input<typeof EnvFromSourceSchema>;
