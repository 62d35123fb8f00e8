// @ts-check
// Runs in a worker thread: validates OpenAPI documents against the specification's JSON Schemas. Compiling a
// version's schema takes a second or more of CPU; on the scanning thread that stalled every request in flight (and
// their timers then fired late, failing sites that had answered in time). Plain JavaScript that imports only packages,
// so it also runs beside the test run's esbuild-compiled entries (test/_compiled-entries.ts), which copy it there.
import { parentPort } from "node:worker_threads";
import { Validator } from "@seriousme/openapi-schema-validator";

// One validator for the thread: it keeps each version's compiled schema. It is only ever handed a parsed object (a
// string would be read as a file name).
const validator = new Validator({ allErrors: true });

parentPort?.on("message", async (/** @type {{ id: number; spec: Record<string, unknown> }} */ message) => {
  try {
    const result = await validator.validate(message.spec);
    const errors =
      typeof result.errors === "string"
        ? result.errors
        : (result.errors ?? []).map(({ instancePath, keyword, params, message: text }) => ({
            instancePath,
            keyword,
            params,
            message: text,
          }));
    parentPort?.postMessage({ id: message.id, valid: result.valid, errors });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, failure: error instanceof Error ? error.message : String(error) });
  }
});
