import { defineConfig } from "vitest/config";

// One pool for in-process and end-to-end files alike: end-to-end files serve a build on the port it was made for, and
// the global setup makes one build per worker (test/helpers/test-build.ts), so they run side by side too. Files share
// their worker's process (isolation off: importing the service's modules once per worker instead of once per file
// halves the suite's CPU); test/_restore-env.ts gives each file the environment it started with.
// The files that assert latencies run last, alone, so that no other file's CPU shows up in their numbers.
const LATENCY = ["test/e2e/lock-stall.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/_global-setup.ts"],
    setupFiles: ["test/_restore-env.ts"],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    isolate: false,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: LATENCY, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: "latency", include: LATENCY, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
