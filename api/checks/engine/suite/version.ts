/**
 * The frozen rubric. A change to any check's pass rule, or a new check, means a new version, so that scores taken
 * with different versions are never compared as if they were the same (landscape §4, "versioned, frozen rubric").
 * Its own module so the database layer can tell current reports from older ones without loading the checks.
 */
export const SUITE_VERSION = "2026.11.4";
