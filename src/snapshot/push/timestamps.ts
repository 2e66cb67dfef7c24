/** The config's `createdAt`: RFC 3339 in UTC with the fraction kept and its trailing zeros trimmed (Go's RFC3339Nano). */
export function createdAt(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.?0+Z$/u, "Z")
    .replace(/\.Z$/u, "Z");
}

/** The manifest's `created` annotation: RFC 3339 in UTC, the fraction truncated (Go's RFC3339). */
export function createdAnnotation(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/u, "Z");
}
