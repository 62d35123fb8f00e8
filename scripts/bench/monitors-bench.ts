// `npm run bench -- monitors`: 1,000 due monitors against corpus sites on loopback, run by two server
// processes on one database file; every monitor must be run exactly once. Reports the time it took and
// the peak number of checks in flight, overall and per instance (from the runs' own start and end times).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Database } from "../../api/db/database.ts";
import { migrate } from "../../api/db/migrate.ts";
import type { Sql } from "../../api/db/sql.ts";
import { startFixtureProcess } from "./checks-bench.ts";
import { type Started, startProcess } from "./lib/processes.ts";
import { type BenchSection, fmt } from "./lib/report.ts";

const MONITORS = 1_000;
const INSTANCES = 2;
const CONCURRENCY = 4;
/** Corpus sites a well-run scan finishes quickly: the hostile one, built to use up the budget, is left out. */
const SITES = ["exemplary", "blog", "docs", "commerce", "api-oauth", "mcp-server", "legacy", "spa"] as const;

interface Interval {
  start: number;
  end: number;
  instance: string;
}

/** The most intervals open at one moment (an end at the same millisecond as a start closes first). */
export function peakOverlap(intervals: readonly Interval[]): number {
  const events = intervals.flatMap((interval) => [
    { at: interval.start, delta: 1 },
    { at: interval.end, delta: -1 },
  ]);
  events.sort((left, right) => left.at - right.at || left.delta - right.delta);
  let open = 0;
  let peak = 0;
  for (const event of events) {
    open += event.delta;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** Due monitors written straight into the database (the setup, not what is measured), round-robin over the sites. */
async function seedMonitors(sql: Sql, origins: readonly string[], at: string): Promise<void> {
  for (let offset = 0; offset < MONITORS; offset += 250) {
    await sql.batch(
      Array.from({ length: Math.min(250, MONITORS - offset) }, (_, index) => {
        const origin = origins[(offset + index) % origins.length] ?? "";
        return {
          sql: `INSERT INTO monitors (id, key_hash, origin, host, input, profile, frequency, email, agent_id, state, created_at, confirmed_at, next_run_at)
                VALUES (?, ?, ?, ?, ?, NULL, 'weekly', ?, NULL, 'active', ?, ?, ?)`,
          args: [
            randomUUID(),
            randomBytes(32).toString("hex"),
            origin,
            new URL(origin).host,
            origin,
            `bench-${offset + index}@example.com`,
            at,
            at,
            at,
          ],
        };
      }),
      "write",
    );
  }
}

interface MonitorsBenchResult {
  /** From the first run's start to the last run's end. */
  spanMs: number;
  /** From starting the two instances (Node start-up included) to the last run recorded. */
  wallMs: number;
  recorded: number;
  onceEach: boolean;
  reports: number;
  failed: number;
  peak: number;
  peakPerInstance: number[];
  perInstance: number[];
  medianRunMs: number;
}

async function measure(sql: Sql): Promise<Omit<MonitorsBenchResult, "wallMs">> {
  const runs = (await sql.execute("SELECT instance, started_at, finished_at, outcome FROM monitor_runs")).rows;
  const intervals = runs.map((row) => ({
    start: Date.parse(String(row.started_at)),
    end: Date.parse(String(row.finished_at)),
    instance: String(row.instance),
  }));
  const instances = [...new Set(intervals.map((interval) => interval.instance))].sort();
  const once = await sql.queryOne(
    "SELECT COUNT(*) AS wrong FROM monitors AS m WHERE m.claims != 1 OR (SELECT COUNT(*) FROM monitor_runs WHERE monitor_id = m.id) != 1",
  );
  const durations = intervals.map((interval) => interval.end - interval.start).sort((a, b) => a - b);
  return {
    spanMs:
      Math.max(...intervals.map((interval) => interval.end)) - Math.min(...intervals.map((interval) => interval.start)),
    recorded: runs.length,
    onceEach: Number(once?.wrong) === 0 && runs.length === MONITORS,
    reports: Number((await sql.queryOne("SELECT COUNT(*) AS n FROM check_reports"))?.n),
    failed: runs.filter((row) => row.outcome === "failed").length,
    peak: peakOverlap(intervals),
    peakPerInstance: instances.map((name) => peakOverlap(intervals.filter((interval) => interval.instance === name))),
    perInstance: instances.map((name) => intervals.filter((interval) => interval.instance === name).length),
    medianRunMs: durations[Math.floor(durations.length / 2)] ?? 0,
  };
}

export async function benchMonitors(port: number): Promise<MonitorsBenchResult> {
  const dataDir = join("test-results", "bench", "monitors");
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const databaseUrl = `file:${join(dataDir, "service.db")}`;
  const fixtures = await startFixtureProcess(SITES);
  const database = new Database({ url: databaseUrl, authToken: undefined, timeoutMs: 5_000 });
  const servers: Started[] = [];
  try {
    await database.configure();
    await migrate(database.client);
    await seedMonitors(
      database.client,
      SITES.map((name) => fixtures[name].origin),
      new Date(Date.now() - 60_000).toISOString(),
    );
    const started = performance.now();
    for (let index = 0; index < INSTANCES; index++) {
      const url = `http://127.0.0.1:${port + index}`;
      servers.push(
        await startProcess(
          ["api/server.ts"],
          {
            PORT: String(port + index),
            SITE_URL: url,
            DIST_DIR: join(dataDir, "no-build"),
            DATABASE_URL: databaseUrl,
            CHECKS_ALLOWED_TARGETS: SITES.map((name) => fixtures[name].hostPort).join(","),
            MONITORS_INTERVAL_MS: "250",
            MONITORS_CONCURRENCY: String(CONCURRENCY),
            LOG_LEVEL: "warn",
            NODE_ENV: "development",
          },
          `${url}/health`,
          url,
        ),
      );
    }
    const deadline = Date.now() + 45 * 60_000;
    const recorded = async () =>
      Number((await database.client.queryOne("SELECT COUNT(*) AS n FROM monitor_runs"))?.n ?? 0);
    while ((await recorded()) < MONITORS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    const wallMs = performance.now() - started;
    // A little longer: a second run of anything would show now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { ...(await measure(database.client)), wallMs: Math.round(wallMs) };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    database.close();
    await fixtures.close();
  }
}

export async function benchMonitorsSection(port: number): Promise<BenchSection> {
  const result = await benchMonitors(port);
  return {
    title: "Monitors: 1,000 due monitors run by two instances on one database",
    rows: [
      {
        metric: `${MONITORS.toLocaleString("en")} due monitors, each claimed and run exactly once`,
        value: `${result.recorded.toLocaleString("en")} runs, ${result.reports.toLocaleString("en")} reports`,
        target: "each once",
        met: result.onceEach && result.reports === MONITORS,
      },
      {
        metric: "time from the first run's start to the last run's end",
        value: fmt.ms(result.spanMs),
        target: "reported",
        met: true,
      },
      {
        metric: "time from starting both instances (Node start-up included) to the last run recorded",
        value: fmt.ms(result.wallMs),
        target: "reported",
        met: true,
      },
      {
        metric: "runs per second (over the runs' span)",
        value: (result.recorded / (result.spanMs / 1000)).toFixed(1),
        target: "reported",
        met: true,
      },
      {
        metric: `peak checks in flight (per instance: ${result.peakPerInstance.join(", ")})`,
        value: String(result.peak),
        target: `≤ ${INSTANCES * CONCURRENCY} (${CONCURRENCY} per instance)`,
        met: result.peak <= INSTANCES * CONCURRENCY && result.peakPerInstance.every((peak) => peak <= CONCURRENCY),
      },
      { metric: "runs by instance", value: result.perInstance.join(" / "), target: "reported", met: true },
      { metric: "median time of one run", value: fmt.ms(result.medianRunMs), target: "reported", met: true },
      { metric: "failed runs", value: String(result.failed), target: "0", met: result.failed === 0 },
    ],
    notes: [
      `${SITES.length} corpus sites (test/fixtures/sites/) serve the checks from a child process; the two instances poll every 250 ms with MONITORS_CONCURRENCY=${CONCURRENCY}. The peaks come from each run's recorded start and end.`,
    ],
  };
}
