import { createApp } from "./api/app.ts";
import { composeServices } from "./api/compose.ts";
import { loadConfig } from "./api/config.ts";
import { createLogger } from "./api/platform/log.ts";
import { startSqld } from "./scripts/lib/sqld.ts";

const s = await startSqld();
const config = loadConfig({
  NODE_ENV: "production",
  SITE_URL: "http://127.0.0.1:4611",
  DIST_DIR: "test-results/dist",
  DATABASE_URL: s.url,
  SERVER_SECRET: "x".repeat(40),
  RATE_LIMIT_STORE: process.argv[2] ?? "database",
  RATE_LIMITS: "waitlist=100000000/60",
  TRUST_PROXY: "true",
});
const log = createLogger("silent");
const services = await composeServices(config, log);
const app = createApp({ config, log, site: null, services });
let n = 0;
const lat: number[] = [];
const end = Date.now() + 5000;
const statuses: Record<number, number> = {};
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const r = await app.request("/api/v1/waitlist", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `p${n++}@example.com`, consent: true, consent_version: "privacy-2026-11-01" }),
      });
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      await r.arrayBuffer();
      lat.push(performance.now() - t0);
    }
  }),
);
lat.sort((a, b) => a - b);
console.log(
  `${(lat.length / 5).toFixed(0)}/s p50 ${lat[lat.length >> 1]?.toFixed(1)} p99 ${lat[Math.floor(lat.length * 0.99)]?.toFixed(1)} ms`,
  statuses,
  (globalThis as any).retries,
);
services.database.close();
await s.close();
process.exit(0);
