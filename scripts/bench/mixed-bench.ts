// A mixed workload against one server process, at rising concurrency, each point next to a bare
// node:http hello-world measured at the same concurrency in the same run:
//   70 % reads of docs and discovery (static and live), 20 % agent waiting-list writes (each from
//   an agent that has not written yet), 9 % report reads, 1 % full readiness checks of a fixture site.
// The same mix with the checks replaced by report reads runs too: a check costs about 45 outbound
// requests and their parsing, so the two together show what the checks cost everything else.
import { mkdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { startFixtureProcess } from "./checks-bench.ts";
import { BENCH_AGENT_ENTRY, seedAgents } from "./lib/agents.ts";
import { runLoad } from "./lib/load.ts";
import type { LoadResult, MixedRequest } from "./lib/load-shapes.ts";
import { startProcess } from "./lib/processes.ts";
import { type BenchSection, fmt } from "./lib/report.ts";

export const CONCURRENCY = [1, 4, 16, 64] as const;
const SECONDS = 5;
/** Requests per point before the mix repeats; sized above what one point sends, so every write is an agent's first. */
const MIX_LENGTH = 25_000;

const READS = [
  "/api/v1/docs",
  "/docs/store",
  "/docs/store.md",
  "/llms.txt",
  "/.well-known/api-catalog",
  "/openapi.json",
  "/capabilities.json",
  "/status.json",
  "/api/v1/config",
  "/.well-known/mcp/server-card.json",
];

export interface MixedPoint {
  connections: number;
  /** Reads, writes and report reads only. */
  withoutChecks: LoadResult;
  /** The same with 1 % full readiness checks. */
  mixed: LoadResult;
  hello: LoadResult;
}

/** The request sequence of one point: the shares above, interleaved, writes each with a fresh token. */
function mix(tokens: string[], reportId: string, checkBody: string | null): MixedRequest[] {
  const write = BENCH_AGENT_ENTRY;
  const requests: MixedRequest[] = [];
  let token = 0;
  for (let index = 0; index < MIX_LENGTH; index++) {
    const slot = index % 100;
    if (slot < 70) requests.push({ method: "GET", path: READS[index % READS.length] ?? "/" });
    else if (slot < 90)
      requests.push({
        method: "POST",
        path: "/api/v1/agents/waitlist",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[token++ % tokens.length]}` },
        body: write,
      });
    else if (slot < 99 || checkBody === null) requests.push({ method: "GET", path: `/api/v1/checks/${reportId}` });
    else
      requests.push({
        method: "POST",
        path: "/api/v1/checks",
        headers: { "content-type": "application/json" },
        body: checkBody,
      });
  }
  return requests;
}

export async function benchMixed(
  distDir: string,
  siteUrl: string,
  port: number,
): Promise<{ section: BenchSection; points: MixedPoint[] }> {
  const dataDir = resolve("test-results/bench-mixed");
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const databaseUrl = `file:${join(dataDir, "service.db")}`;
  const writesPerPoint = MIX_LENGTH / 5;
  const tokens = await seedAgents(databaseUrl, writesPerPoint * CONCURRENCY.length * 2);
  const fixture = await startFixtureProcess(["exemplary"]);
  // Development mode: production refuses CHECKS_ALLOWED_TARGETS, which the loopback fixture needs.
  const server = await startProcess(
    ["api/server.ts"],
    {
      PORT: String(port),
      SITE_URL: siteUrl,
      DIST_DIR: distDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "info",
      NODE_ENV: "development",
      CHECKS_ALLOWED_TARGETS: fixture.exemplary.hostPort,
      RATE_LIMITS: "checks=1000000/60,checks-daily=1000000/86400,mcp=1000000/60",
    },
    `${siteUrl}/health`,
    siteUrl,
  );
  const hello = await startProcess(
    ["scripts/bench/hello-server.ts", String(port + 2)],
    {},
    `http://127.0.0.1:${port + 2}/`,
    `http://127.0.0.1:${port + 2}`,
  );
  const points: MixedPoint[] = [];
  let peakRss = 0;
  try {
    const checkBody = JSON.stringify({ domain: fixture.exemplary.origin });
    const first = await fetch(`${siteUrl}/api/v1/checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: checkBody,
    });
    const reportId = ((await first.json()) as { id: string }).id;
    await runLoad({ url: `${siteUrl}/`, seconds: 2, requests: READS.map((path) => ({ method: "GET", path })) });
    for (const [index, connections] of CONCURRENCY.entries()) {
      const slice = (run: number) =>
        tokens.slice((index * 2 + run) * writesPerPoint, (index * 2 + run + 1) * writesPerPoint);
      const helloResult = await runLoad({ url: `${hello.url}/`, connections, seconds: SECONDS });
      const sampling = setInterval(() => void server.rssMb().then((rss) => (peakRss = Math.max(peakRss, rss))), 250);
      const withoutChecks = await runLoad({
        url: `${siteUrl}/`,
        connections,
        seconds: SECONDS,
        requests: mix(slice(0), reportId, null),
      });
      const mixed = await runLoad({
        url: `${siteUrl}/`,
        connections,
        seconds: SECONDS,
        requests: mix(slice(1), reportId, checkBody),
      });
      clearInterval(sampling);
      points.push({ connections, withoutChecks, mixed, hello: helloResult });
    }
  } finally {
    await hello.stop();
    await server.stop();
    await fixture.close();
  }
  const rows: BenchSection["rows"] = points.flatMap(({ connections, withoutChecks, mixed, hello: baseline }) =>
    [
      [
        `reads, writes and report reads, ${connections} connection${connections === 1 ? "" : "s"}`,
        withoutChecks,
      ] as const,
      [`the same with 1 % checks, ${connections} connection${connections === 1 ? "" : "s"}`, mixed] as const,
    ].map(([metric, result]) => ({
      metric,
      value: `${fmt.rps(result.requestsPerSecond)} = ${fmt.pct(result.requestsPerSecond / baseline.requestsPerSecond)} (p50 ${fmt.ms(result.p50Ms)}, p99 ${fmt.ms(result.p99Ms)}; ${statusSummary(result)})`,
      baseline: `${fmt.rps(baseline.requestsPerSecond)} (hello-world, p99 ${fmt.ms(baseline.p99Ms)})`,
      target: "reported; no 5xx, no errors",
      met: result.errors === 0 && Object.keys(result.statusCodes).every((status) => !status.startsWith("5")),
    })),
  );
  rows.push({
    metric: "server RSS under the mixed load (peak sampled)",
    value: fmt.mb(peakRss),
    target: "reported",
    met: true,
  });
  return {
    section: {
      title: "Mixed workload (docs and discovery reads, agent writes, report reads, checks)",
      rows,
      notes: [
        "Per 100 requests: 70 reads of static and live documents, 20 agent waiting-list writes (each agent's first), 9 report reads, and either a 10th report read or 1 full readiness check of a loopback fixture site (about 45 requests to it, served from the same machine). The baseline is a bare node:http hello-world at the same concurrency. Errors are the load generator's 2-second timeouts.",
      ],
    },
    points,
  };
}

function statusSummary(result: LoadResult): string {
  return Object.entries(result.statusCodes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${count.toLocaleString("en")} × ${status}`)
    .concat(result.errors > 0 ? [`${result.errors.toLocaleString("en")} errors`] : [])
    .join(", ");
}
