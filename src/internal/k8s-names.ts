/**
 * Name checks the apiserver runs on a custom resource's metadata (apimachinery
 * `ValidateObjectMetaAccessor` with `NameIsDNSSubdomain`), with its messages.
 *
 * @internal
 */
import { isDNS1123Label, isDNS1123Subdomain } from "./linear-patterns.js";

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;

/** `validation.DNS1123SubdomainMaxLength`. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
/** `validation.DNS1123LabelMaxLength`. */
export const DNS1123_LABEL_MAX_LENGTH = 63;

/** The part of a generateName the apiserver keeps before appending 5 random characters. */
const MAX_GENERATED_PREFIX_LENGTH = 63 - 5;

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must " +
  `start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN_FMT}')`;
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and " +
  `end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL_FMT}')`;

const maxLenMessage = (max: number): string => `must be no more than ${String(max)} characters`;

/** `maskTrailingDash`: a generateName may end in `-`; Go replaces its last two characters with `a`. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

/** `validation.IsDNS1123Subdomain`: the messages, empty when valid. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLenMessage(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!isDNS1123Subdomain(value)) errors.push(SUBDOMAIN_MESSAGE);
  return errors;
}

/** `validation.IsDNS1123Label`: the messages, empty when valid. */
export function dns1123LabelErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errors.push(maxLenMessage(DNS1123_LABEL_MAX_LENGTH));
  if (!isDNS1123Label(value)) errors.push(LABEL_MESSAGE);
  return errors;
}

/** `NameIsDNSSubdomain(name, prefix)`: a prefix (generateName) may end in a dash. */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return dns1123SubdomainErrors(prefix ? maskTrailingDash(name) : name);
}

/**
 * The name the apiserver would generate from `generateName` (`names.SimpleNameGenerator`), with a
 * fixed stand-in for the 5 random lowercase alphanumerics (any of them gives the same verdict).
 */
export function generatedNameStandIn(generateName: string): string {
  return `${generateName.slice(0, MAX_GENERATED_PREFIX_LENGTH)}xxxxx`;
}
