import { defineConfig } from "vitest/config";

// One pool for every file, in-process and end-to-end alike. End-to-end files serve a build on the port it was made
// for; the global setup makes one build per worker (test/helpers/test-build.ts), so they run side by side too.
export default defineConfig({
  test: {
    globalSetup: ["test/_global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"] } },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"] } },
    ],
  },
});
