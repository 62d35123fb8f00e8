import { resolve } from "node:path";
import { z } from "zod";
import { resolveSiteUrls, SiteUrlEnvSchema } from "../lib/site-urls.ts";

const BuildEnvSchema = SiteUrlEnvSchema.extend({
  /** Where live URLs and the API are proxied to when the static part is on a CDN. */
  API_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  DIST_DIR: z.string().min(1).default("dist"),
});

export interface BuildConfig {
  root: string;
  contentRoot: string;
  outDir: string;
  siteUrl: string;
  docsUrl: string;
  apiOrigin: string;
}

/** The build's settings from the environment; throws one message naming the bad variable. */
export function buildConfigFromEnv(env: Record<string, string | undefined>, root: string): BuildConfig {
  const parsed = BuildEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid build configuration: ${String(issue?.path[0] ?? "")}: ${issue?.message ?? "invalid"}`);
  }
  const { siteUrl, docsUrl } = resolveSiteUrls(parsed.data);
  return {
    root,
    contentRoot: root,
    outDir: resolve(root, parsed.data.DIST_DIR),
    siteUrl,
    docsUrl,
    apiOrigin: (parsed.data.API_ORIGIN ?? siteUrl).replace(/\/+$/, ""),
  };
}
