import { defineCommand } from "citty";
import { ConfigError, loadConfig } from "../../api/config.ts";
import { listMonitors, type MonitorState, stopMonitor } from "../../api/monitors/sql/monitors.ts";
import { countRuns } from "../../api/monitors/sql/runs.ts";
import { createLogger } from "../../api/platform/log.ts";
import { composeServices } from "../../api/wiring/compose.ts";
import { AdminError, printRows, withDatabase } from "./context.ts";
import { complain, say } from "./terminal.ts";

const STATES: readonly MonitorState[] = ["pending", "active", "stopped"];

export const monitorsCommand = defineCommand({
  meta: {
    name: "monitors",
    description:
      "Watched sites: list them, and run the checks that are due now (the servers do this every 30 seconds).",
  },
  subCommands: {
    list: defineCommand({
      meta: { name: "list", description: "Monitors, newest first: domain, owner, frequency, state, next run, runs." },
      args: {
        state: { type: "string", description: `Only this state: ${STATES.join(", ")}` },
        limit: { type: "string", description: "How many", default: "100" },
        json: { type: "boolean", description: "Print JSON" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const state = STATES.find((candidate) => candidate === args.state);
          if (args.state && !state) throw new AdminError(`Unknown state ${args.state}; states: ${STATES.join(", ")}`);
          const monitors = await listMonitors(client, {
            limit: Number(args.limit) || 100,
            ...(state ? { state } : {}),
          });
          const runs = await countRuns(
            client,
            monitors.map((monitor) => monitor.id),
          );
          printRows(
            monitors.map((monitor) => ({
              id: monitor.id,
              domain: monitor.host,
              owner: monitor.email ?? monitor.agent_id,
              frequency: monitor.frequency,
              state: monitor.state,
              next_run_at: monitor.next_run_at,
              runs: runs.get(monitor.id) ?? 0,
              created_at: monitor.created_at,
            })),
            args.json === true,
          );
        }),
    }),
    stop: defineCommand({
      meta: {
        name: "stop",
        description: "Stop a monitor (its history stays readable); the id is the one `list` shows.",
      },
      args: { id: { type: "positional", description: "The monitor's id from `list`", required: true } },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const stopped = await stopMonitor(client, args.id, new Date().toISOString(), "stopped by staff");
          if (!stopped) throw new AdminError(`No running monitor ${args.id}; \`monitors list\` shows the ids.`);
          say(`Stopped watching ${stopped.host}.`);
        }),
    }),
    "run-due": defineCommand({
      meta: {
        name: "run-due",
        description:
          "Run every monitor that is due now, once, with the servers' rules: each is claimed with a lease, so a server running at the same time never runs it too.",
      },
      async run() {
        let close = () => {};
        try {
          const config = loadConfig();
          const services = await composeServices(config, createLogger("warn"));
          close = () => services.database.close();
          const report = await services.scheduler.runDue();
          say(
            `Recorded ${report.recorded} run${report.recorded === 1 ? "" : "s"}, queued ${report.alerts} alert${report.alerts === 1 ? "" : "s"}${report.superseded > 0 ? `; ${report.superseded} finished after their lease passed on and were dropped` : ""}.`,
          );
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          complain(error.message);
          process.exitCode = 1;
        } finally {
          close();
        }
      },
    }),
  },
});
