// The agent API under load, in one run with its baseline:
//   GET /api/v1/agents/me (a token lookup) ≥ 75 % of a bare node:http server sending the same head and body;
//   POST /api/v1/agents/waitlist from distinct agents ≥ 2,000 accepted writes/s, p99 ≤ 50 ms at 32 connections.
import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { BENCH_AGENT_ENTRY, seedAgents } from "./lib/agents.ts";
import { compareWithBaseline, runLoad } from "./lib/load.ts";
import { startProcess } from "./lib/processes.ts";
import { type BenchSection, fmt } from "./lib/report.ts";
import { rawGet, startSameBytesServer } from "./lib/same-bytes.ts";

/** The token lookup against writing the same answer from memory: what the lookup, auth and logging cost. */
const OF_BARE = 0.75;

export async function benchApi(distDir: string, siteUrl: string, port: number): Promise<BenchSection> {
  const dataDir = resolve("test-results/bench-data");
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const databaseUrl = `file:${join(dataDir, "service.db")}`;
  const tokens = await seedAgents(databaseUrl, 45_000);
  const server = await startProcess(
    ["api/server.ts"],
    {
      PORT: String(port),
      SITE_URL: siteUrl,
      DIST_DIR: distDir,
      DATABASE_URL: databaseUrl,
      // The request log at its default level (info): one line per request, as in production.
      LOG_LEVEL: "info",
      NODE_ENV: "production",
    },
    `${siteUrl}/health`,
    siteUrl,
  );
  const rows: BenchSection["rows"] = [];
  const asAgent = { authorization: `Bearer ${tokens[0]}` };
  const bare = await startSameBytesServer(
    await rawGet(`${siteUrl}/api/v1/agents/me`, asAgent),
    join(dataDir, "bare-agents-me"),
    port + 2,
  );
  try {
    const me = await compareWithBaseline(
      { url: `${siteUrl}/api/v1/agents/me`, headers: asAgent },
      { url: `${bare.url}/api/v1/agents/me` },
    );
    rows.push({
      metric: "GET /api/v1/agents/me (token lookup, 32 connections)",
      value: `${fmt.rps(me.target.requestsPerSecond)} = ${fmt.pct(me.ratio)} (p99 ${fmt.ms(me.target.p99Ms)}, non-2xx ${me.target.non2xx})`,
      baseline: `${fmt.rps(me.baseline.requestsPerSecond)} (bare node:http, same head and body)`,
      target: `≥ ${fmt.pct(OF_BARE)} of bare`,
      met: me.ratio >= OF_BARE && me.target.non2xx === 0,
    });
    const body = BENCH_AGENT_ENTRY;
    const write = (slice: string[], seconds: number) =>
      runLoad({
        url: `${siteUrl}/api/v1/agents/waitlist`,
        method: "POST",
        seconds,
        connections: 32,
        headers: { "content-type": "application/json" },
        bodies: [body],
        headerSets: slice.map((token) => ({ authorization: `Bearer ${token}` })),
      });
    await write(tokens.slice(1, 5_001), 2);
    let rssUnderLoad = 0;
    const sampling = setInterval(
      () => void server.rssMb().then((rss) => (rssUnderLoad = Math.max(rssUnderLoad, rss))),
      250,
    );
    const writes = await write(tokens.slice(5_001), 5);
    clearInterval(sampling);
    const accepted = writes.statusCodes["201"] ?? 0;
    const perSecond = accepted / 5;
    rows.push({
      metric: "POST /api/v1/agents/waitlist, distinct agents (32 connections, 5 s)",
      value: `${Math.round(perSecond).toLocaleString("en")} accepted/s (p99 ${fmt.ms(writes.p99Ms)}; ${accepted} × 201, ${writes.non2xx} other)`,
      target: "≥ 2,000/s, p99 ≤ 50 ms",
      met: perSecond >= 2000 && writes.p99Ms <= 50 && writes.non2xx === 0,
    });
    rows.push({
      metric: "server RSS under the write load (peak sampled)",
      value: fmt.mb(rssUnderLoad),
      target: "reported",
      met: true,
    });
  } finally {
    await bare.stop();
    await server.stop();
  }
  return {
    title: "Agent API (token lookup and waiting-list writes)",
    rows,
    notes: [
      "Agents and their tokens are registered straight into the database before the run, so the load is only the measured requests. Each write uses a token no other write uses.",
    ],
  };
}
