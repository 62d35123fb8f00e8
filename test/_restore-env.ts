import { afterAll } from "vitest";

/**
 * Files share their worker's process (the config turns isolation off: re-importing the service's
 * modules for every file cost more than half the suite's CPU), so what one file sets in
 * `process.env` (the staff CLI tests configure it as an operator's shell would) must not reach the
 * next: each file ends with the environment it started with.
 */
const before = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
});
