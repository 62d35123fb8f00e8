import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { loadSiteFiles, type SiteFiles } from "../../api/site/site-files.ts";
import { testBuild } from "./test-build.ts";

let sitePromise: Promise<SiteFiles | null> | undefined;

/** The site built by the global setup, loaded once per test file. */
export function builtSite(): Promise<SiteFiles | null> {
  sitePromise ??= loadSiteFiles(testBuild().distDir);
  return sitePromise;
}

export function siteUrl(): string {
  return testBuild().siteUrl;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);

/** Validates a value against a schema as published under /schemas/ by the build. */
export function validateAgainstPublishedSchema(name: string, value: unknown): string[] {
  const id = `${siteUrl()}/schemas/${name}.json`;
  let validate = ajv.getSchema(id);
  if (!validate) {
    ajv.addSchema(JSON.parse(readFileSync(join(testBuild().distDir, "client", "schemas", `${name}.json`), "utf8")));
    validate = ajv.getSchema(id);
  }
  if (!validate) throw new Error(`No published schema ${name}`);
  return validate(value)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}
