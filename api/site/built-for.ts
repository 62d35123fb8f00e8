import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

/** The public URLs a build was made for (recorded in its manifest); its every absolute link names them. */
export interface BuiltUrls {
  siteUrl: string;
  /** Builds made before it was recorded do not say. */
  docsUrl: string | undefined;
}

const ManifestUrlsSchema = z.object({ site_url: z.string(), docs_url: z.string().optional() });

/** The URLs the build in `distDir` was made for; `null` when there is no build to read. */
export async function readBuiltUrls(distDir: string): Promise<BuiltUrls | null> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(join(distDir, "manifest.json"), "utf8"));
  } catch {
    // No build, or one cut short: the server then says there is no build, as loadSiteFiles does.
    return null;
  }
  const parsed = ManifestUrlsSchema.safeParse(manifest);
  return parsed.success ? { siteUrl: parsed.data.site_url, docsUrl: parsed.data.docs_url } : null;
}

/**
 * Why `who` must not use this build under the configured URLs, naming both and the fix; `null` when
 * they agree (or there is no build). Served elsewhere, the build's pages, openapi.json, discovery
 * files and the links in e-mails would all send people and agents to the URL it was made for.
 */
export function builtUrlMismatch(
  built: BuiltUrls | null,
  configured: { siteUrl: string; docsUrl: string },
  who: string,
): string | null {
  if (built === null) return null;
  if (built.siteUrl !== configured.siteUrl) return explain("SITE_URL", built.siteUrl, configured.siteUrl, who);
  if (built.docsUrl !== undefined && built.docsUrl !== configured.docsUrl)
    return explain("DOCS_URL", built.docsUrl, configured.docsUrl, who);
  return null;
}

function explain(variable: "SITE_URL" | "DOCS_URL", madeFor: string, wanted: string, who: string): string {
  const defaulted = variable === "SITE_URL" ? " (SITE_URL, or http://HOST:PORT when it is unset)" : "";
  return [
    `The build was made for ${madeFor}, but ${who} is configured for ${wanted}${defaulted}.`,
    `Every absolute link in the build (pages, openapi.json, discovery files, e-mails) names ${madeFor}.`,
    `Fix: rebuild for this URL (${variable}=${wanted} npm run build, or npm start with the same settings), or set ${variable}=${madeFor} to use the build as it is.`,
  ].join("\n");
}
