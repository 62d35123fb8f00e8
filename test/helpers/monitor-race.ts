import type { Client } from "@libsql/client";
import { expect } from "vitest";
import { issueStaffToken, runAdmin } from "./admin-cli.ts";
import type { ChangingSite } from "./monitors.ts";

/**
 * Agents' monitors created through every instance at once (each due at once), with the staff command
 * `monitors run-due` racing the instances' own schedulers: every monitor must be claimed once, checked
 * once (one stored report) and recorded once, whatever the database is.
 */
export async function expectEachDueMonitorRunOnce(
  instances: readonly string[],
  env: Record<string, string>,
  db: Client,
  sites: readonly ChangingSite[],
  agents = 2,
): Promise<void> {
  const tokens = await Promise.all(
    Array.from({ length: agents }, (_, index) => issueStaffToken(env, `Racer ${index}`, "monitors:write")),
  );
  const racing = runAdmin(env, "monitors", "run-due");
  const created = await Promise.all(
    tokens.flatMap((token, agent) =>
      sites.map((site, index) =>
        fetch(`${instances[(agent + index) % instances.length]}/api/v1/agents/monitors`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ domain: site.origin }),
        }).then((response) => response.status),
      ),
    ),
  );
  const total = agents * sites.length;
  expect(created).toEqual(Array(total).fill(201));
  const runs = async () => Number((await db.execute("SELECT COUNT(*) AS n FROM monitor_runs")).rows[0]?.n);
  const deadline = Date.now() + 90_000;
  while ((await runs()) < total && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  const cli = await racing;
  expect(cli.code, cli.stderr).toBe(0);
  // Another second of every instance polling: nothing is run a second time.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const perMonitor = (
    await db.execute(
      "SELECT m.claims, m.lease_until, COUNT(r.id) AS runs FROM monitors AS m LEFT JOIN monitor_runs AS r ON r.monitor_id = m.id GROUP BY m.id",
    )
  ).rows;
  expect(perMonitor).toHaveLength(total);
  for (const row of perMonitor) expect({ ...row }).toMatchObject({ claims: 1, lease_until: null, runs: 1 });
  expect(Number((await db.execute("SELECT COUNT(*) AS n FROM check_reports")).rows[0]?.n)).toBe(total);
  const listed = await runAdmin(env, "monitors", "list", "--state", "active", "--json");
  const rows = JSON.parse(listed.stdout) as { runs: number; state: string }[];
  expect(rows).toHaveLength(total);
  expect(rows.every((row) => row.runs === 1 && row.state === "active")).toBe(true);
}
