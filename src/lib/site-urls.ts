import { z } from "zod";

const UrlSchema = z.url({ protocol: /^https?$/ }).transform((value) => value.replace(/\/+$/, ""));

export const SiteUrlEnvSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce
    .number({ error: "must be a port number (0-65535)" })
    .int("must be a port number (0-65535)")
    .min(0)
    .max(65_535)
    .default(4321),
  SITE_URL: UrlSchema.optional(),
  DOCS_URL: UrlSchema.optional(),
});

/** SITE_URL defaults to where the server listens; DOCS_URL to SITE_URL. No trailing slashes. */
export function resolveSiteUrls(env: z.infer<typeof SiteUrlEnvSchema>): { siteUrl: string; docsUrl: string } {
  const host = env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  const siteUrl = env.SITE_URL ?? `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${env.PORT}`;
  return { siteUrl, docsUrl: env.DOCS_URL ?? siteUrl };
}
