import { defineOperation, type FindCall } from "../platform/operations/definition.ts";
import { ApiProblem } from "../platform/problem.ts";
import { validationProblem } from "../platform/violations.ts";
import { HISTORY_PAGE, type MonitorService } from "./service.ts";
import type { MonitorRow } from "./sql/monitors.ts";

/** Which page of history to show: `before` (a cursor from `history.next`) and `limit` (1–100, default 20). */
export interface HistoryPage {
  before?: string | undefined;
  limit?: string | undefined;
}

/** The page a query asks for; 422 naming each bad parameter, as for a body. */
export function historyPage(query: HistoryPage): { before?: number; limit: number } {
  const errors: { pointer: string; detail: string }[] = [];
  const before = query.before === undefined ? undefined : Number(query.before);
  if (before !== undefined && !(Number.isSafeInteger(before) && before > 0 && /^\d+$/.test(query.before ?? "")))
    errors.push({ pointer: "#/before", detail: "must be the cursor from history.next, a positive whole number" });
  const limit = query.limit === undefined ? HISTORY_PAGE : Number(query.limit);
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100 && /^\d+$/.test(query.limit ?? "20")))
    errors.push({ pointer: "#/limit", detail: "must be a whole number from 1 to 100" });
  if (errors.length > 0) throw validationProblem(errors);
  return before === undefined ? { limit } : { before, limit };
}

const notFound = () =>
  new ApiProblem("not-found", "No such monitor. Its id is in the links of its e-mails or in list_monitors: check it.");

/** The monitors' operations; the registry says who may call them, how often, with what body, and when they are open. */
export function monitorOperations(monitors: MonitorService) {
  const monitor = async ({ params }: Pick<FindCall<"getMonitor">, "params">): Promise<MonitorRow> => {
    const found = await monitors.find(params.id ?? "");
    if (!found) throw notFound();
    return found;
  };
  return {
    request: defineOperation("requestMonitor", { run: ({ body }) => monitors.request(body) }),
    confirm: defineOperation("confirmMonitor", { run: ({ body }) => monitors.confirm(body) }),
    unsubscribe: defineOperation("unsubscribeMonitor", { run: ({ body }) => monitors.unsubscribe(body) }),
    /** `page` carries the query of an HTTP request; an MCP call passes it in its arguments, as path parameters. */
    read: (page: HistoryPage = {}) =>
      defineOperation("getMonitor", {
        find: monitor,
        run: ({ found, params }) =>
          monitors.view(
            found,
            historyPage({ before: page.before ?? params.before, limit: page.limit ?? params.limit }),
          ),
      }),
    createForAgent: defineOperation("createAgentMonitor", {
      run: ({ agent, body }) => monitors.createForAgent(agent.agent.id, body),
    }),
    listForAgent: defineOperation("listAgentMonitors", { run: ({ agent }) => monitors.listForAgent(agent.agent.id) }),
    /** An agent reads only its own monitors: any other id is 404, as an unknown one is. */
    readForAgent: (page: HistoryPage = {}) =>
      defineOperation("getAgentMonitor", {
        find: async ({ params, agent }) => {
          const found = await monitor({ params });
          if (found.agent_id !== agent.agent.id) throw notFound();
          return found;
        },
        run: ({ found, params }) =>
          monitors.view(
            found,
            historyPage({ before: page.before ?? params.before, limit: page.limit ?? params.limit }),
          ),
      }),
    badge: defineOperation("getMonitorBadge", { run: ({ params }) => monitors.badge(params.domain ?? "") }),
  };
}

export type MonitorOperations = ReturnType<typeof monitorOperations>;
