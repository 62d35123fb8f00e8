import { defineConfig } from "vitest/config";

// Two groups: in-process tests run in parallel; end-to-end tests start real servers on the one
// port the test build was made for, so they run afterwards, one file at a time.
export default defineConfig({
  test: {
    globalSetup: ["test/_global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
