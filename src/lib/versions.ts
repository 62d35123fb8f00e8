/** A version's date (`…-YYYY-MM-DD`, optionally `.N`) and the UTC date of its publication must agree. */
export function versionDate(version: string): string | null {
  const match = /(\d{4}-\d{2}-\d{2})(?:\.\d+)?$/.exec(version);
  return match?.[1] ?? null;
}

export function versionMatchesPublishedAt(version: string, publishedAt: string): boolean {
  return versionDate(version) === publishedAt.slice(0, 10);
}

export interface VersionRecord {
  file: string;
  version: string;
  published_at: string;
  superseded_at: string | null;
}

export interface VersionProblem {
  file: string;
  field: string;
  message: string;
}

/**
 * Checks one page's history, oldest to newest: no version twice, publication times strictly
 * increasing, and each archived version superseded no earlier than it was published and no later
 * than its successor was published.
 */
export function checkVersionHistory(history: readonly VersionRecord[]): VersionProblem[] {
  const problems: VersionProblem[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of history.entries()) {
    if (seen.has(entry.version)) {
      problems.push({ file: entry.file, field: "version", message: `duplicates version ${entry.version}` });
    }
    seen.add(entry.version);
    const next = history[index + 1];
    if (!next) continue;
    if (entry.published_at >= next.published_at) {
      problems.push({
        file: next.file,
        field: "published_at",
        message: `must be later than ${entry.published_at}, when the previous version ${entry.version} was published`,
      });
    }
    if (entry.superseded_at !== null) {
      if (entry.superseded_at < entry.published_at) {
        problems.push({ file: entry.file, field: "superseded_at", message: "must not be earlier than published_at" });
      } else if (entry.superseded_at > next.published_at) {
        problems.push({
          file: entry.file,
          field: "superseded_at",
          message: `must not be later than ${next.published_at}, when ${next.version} was published`,
        });
      }
    }
  }
  return problems;
}
