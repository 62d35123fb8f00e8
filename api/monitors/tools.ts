import { z } from "zod";
import type { RequestSchemas } from "../../src/schemas/requests/bodies.ts";
import { AgentMonitorListSchema, AgentMonitorSchema, MonitorSchema } from "../../src/schemas/responses/monitors.ts";
import { operationTool, READ_ONLY, type Tool } from "../platform/mcp-tool.ts";
import type { MonitorOperations } from "./operations.ts";

const TOKEN = "Needs an agent token with the scope monitors:write as Authorization: Bearer <token> on the MCP request.";

/** Monitors through MCP: the same operations as the HTTP API, with the same token, scope and limits. */
export function monitorTools(operations: MonitorOperations, bodySchemas: RequestSchemas): Tool[] {
  return [
    operationTool(
      {
        ...operations.createForAgent,
        run: async (call) => (await operations.createForAgent.run(call)).monitor,
      },
      bodySchemas,
      {
        name: "create_monitor",
        title: "Watch a site",
        description: `Watches a website's agent readiness for this agent registration: a readiness check now, then daily or weekly (default weekly), every run kept with its score, level and each check's status. Use it when asked to keep an eye on a site, or to learn when it regresses; the same site again returns the monitor it already has, and read_monitor shows the history. ${TOKEN}`,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
        output: AgentMonitorSchema,
      },
    ),
    operationTool(operations.listForAgent, bodySchemas, {
      name: "list_monitors",
      title: "List this agent's monitors",
      description: `Lists the sites this agent registration watches, each with its id, page, badge and latest run. Use it to find a monitor's id or to see at a glance which site got worse. ${TOKEN}`,
      annotations: { ...READ_ONLY, idempotentHint: false },
      params: z.strictObject({}),
      output: AgentMonitorListSchema,
    }),
    operationTool(operations.readForAgent(), bodySchemas, {
      name: "read_monitor",
      title: "Read a monitor's history",
      description: `Reads one of this agent's monitors by its id (from create_monitor or list_monitors): the monitor and its runs, newest first, 20 a page, each with its score, level, suite version and every check's status. Use it to see what changed over time; pass the \`before\` value of history.next for older runs. ${TOKEN}`,
      annotations: { ...READ_ONLY, idempotentHint: false },
      params: z.strictObject({
        id: z.string().describe("The monitor's id (mon_…), as create_monitor or list_monitors returned it"),
        before: z.string().optional().describe("The cursor for older runs: the `before` value in history.next"),
        limit: z.string().optional().describe("Runs per page, 1 to 100 (default 20)"),
      }),
      output: MonitorSchema,
    }),
  ];
}
