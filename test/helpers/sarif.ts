import { readFileSync } from "node:fs";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";

// The OASIS SARIF 2.1.0 schema, vendored unchanged (test/fixtures/sarif/README.md says from where); draft-04.
const schema: object = JSON.parse(
  readFileSync(new URL("../fixtures/sarif/sarif-schema-2.1.0.json", import.meta.url), "utf8"),
);
const ajv = new AjvDraft04({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

/** Every way `log` breaks the official SARIF 2.1.0 schema, as `pointer message`; empty when it is valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}
