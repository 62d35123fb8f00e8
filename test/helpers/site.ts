import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { H3 } from "h3";
import { createApp, type AppDeps } from "../../api/app.ts";
import { createLogger } from "../../api/log.ts";
import { loadSiteFiles, type SiteFiles } from "../../api/static/site-files.ts";

let sitePromise: Promise<SiteFiles | null> | undefined;

/** The site built by the global setup, loaded once per test file. */
export function builtSite(): Promise<SiteFiles | null> {
  sitePromise ??= loadSiteFiles(inject("site").distDir);
  return sitePromise;
}

export function siteUrl(): string {
  return inject("site").siteUrl;
}

/** A fresh app over the built site, logging nowhere. */
export async function createStaticTestApp(overrides: Partial<AppDeps> = {}): Promise<H3> {
  return createApp({ config: { siteUrl: siteUrl() }, log: createLogger("silent"), site: await builtSite(), ...overrides });
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);

/** Validates a value against a schema as published under /schemas/ by the build. */
export function validateAgainstPublishedSchema(name: string, value: unknown): string[] {
  const id = `${siteUrl()}/schemas/${name}.json`;
  let validate = ajv.getSchema(id);
  if (!validate) {
    ajv.addSchema(JSON.parse(readFileSync(join(inject("site").distDir, "client", "schemas", `${name}.json`), "utf8")));
    validate = ajv.getSchema(id);
  }
  if (!validate) throw new Error(`No published schema ${name}`);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}
