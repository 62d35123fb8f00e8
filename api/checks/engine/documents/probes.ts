import type { ScanResponse } from "../fetch/fetcher.ts";
import { bodyDigest } from "../fetch/scan-response.ts";
import { isSuccess } from "../parse/media-type.ts";
import { ACCEPT_HTML, ACCEPT_JSON, ACCEPT_TEXT, type DocumentContext, pathUrl } from "./document.ts";

export interface UnknownPathProbe {
  suffix: "" | ".json" | ".txt" | ".md";
  url: string;
  response: ScanResponse;
}

const PROBES: ReadonlyArray<{ suffix: UnknownPathProbe["suffix"]; accept: string }> = [
  { suffix: "", accept: ACCEPT_HTML },
  { suffix: ".json", accept: ACCEPT_JSON },
  { suffix: ".txt", accept: ACCEPT_TEXT },
  { suffix: ".md", accept: "text/markdown, text/plain;q=0.9" },
];

/** The page that cannot exist on the site for this scan: the soft-404 probe's, rendered too when the scan renders. */
export function unknownPageUrl(context: Pick<DocumentContext, "target">, token: string): string {
  return pathUrl(context, `/__nonexistent-${token}`);
}

/**
 * Paths that cannot exist on the site. A 200 here means the site answers everything (an SPA fallback or soft 404),
 * which would make every later "document found" meaningless (afdocs URL stability; Lighthouse issue on SPA robots.txt).
 */
export function probeUnknownPaths(context: DocumentContext, token: string): Promise<UnknownPathProbe[]> {
  return Promise.all(
    PROBES.map(async ({ suffix, accept }) => {
      const url = `${unknownPageUrl(context, token)}${suffix}`;
      return { suffix, url, response: await context.trail.get(url, { accept }) };
    }),
  );
}

/** Digests of what the site serves with 2xx for paths that cannot exist: any document with the same body is a fallback. */
export function fallbackFingerprints(probes: readonly UnknownPathProbe[]): Set<string> {
  return new Set(
    probes
      .filter((probe) => isSuccess(probe.response) && probe.response.body.length > 0)
      .map((probe) => bodyDigest(probe.response)),
  );
}
