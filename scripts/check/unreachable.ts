import type { ReadinessResult } from "../../src/schemas/report.ts";

/**
 * Why the scan never reached the site, when it did not: the homepage request got no response at all (no TLS, refused,
 * timed out). Then every check says the same thing, and one plain sentence serves the reader better than forty.
 */
export function unreachableReason(result: ReadinessResult): string | null {
  const home = result.findings.find((finding) => finding.id === "http.home-200");
  if (home === undefined || (home.status !== "error" && home.status !== "fail")) return null;
  const evidence = result.details.find((detail) => detail.id === "http.home-200")?.evidence ?? [];
  const answered = evidence.some((entry) => entry.response !== null);
  return answered ? null : (evidence.find((entry) => entry.error !== null)?.error ?? home.message);
}
