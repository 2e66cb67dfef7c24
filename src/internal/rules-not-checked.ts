// The marker on the issue the schemas of apis/v1 add when the apiserver would skip the CRD's CEL
// rules (apis/v1/internal/rule-gate.ts), shared with the tools that read those issues (the CLI).

/** `params` of the root issue saying the CEL rules were not checked: the marker tools test instead of the message. */
export const RULES_NOT_CHECKED = { rulesNotChecked: true } as const;

/** Reports whether `issue` is the root notice that the CEL rules were skipped (see {@link RULES_NOT_CHECKED}). */
export function isRulesNotCheckedIssue(issue: { readonly code: string; readonly params?: unknown }): boolean {
  return issue.code === "custom" && (issue.params as { rulesNotChecked?: unknown } | undefined)?.rulesNotChecked === true;
}
