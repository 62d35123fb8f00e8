import { z } from "zod";
import { CheckInputSchema } from "../../src/schemas/requests/checks.ts";
import { CheckReportSchema } from "../../src/schemas/responses/checks.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import { defineTool, READ_ONLY, type Tool } from "../platform/mcp-tool.ts";
import { ApiProblem } from "../platform/problem.ts";

/** Readiness checks through MCP: the checks service the HTTP API calls, under the same rate limits. */
export function checkTools(): Tool[] {
  return [
    defineTool({
      name: "run_readiness_check",
      title: "Run an agent-readiness check",
      description:
        "Checks one website for agent readiness (discovery files, Markdown, bot policy, OpenAPI, MCP, API hygiene) and returns the free summary: score, level and one line per check, plus how to unlock the full report. Use it when asked whether a site is ready for AI agents or what to fix. Takes up to ~15 s; counts against the same free daily checks as POST /api/v1/checks.",
      operation: "runCheck",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: CheckInputSchema,
      output: CheckReportSchema,
      run: async (input, { services, clientAddress }) => {
        await enforceRateLimit(services.limiter, "checks", clientAddress, "checks-daily");
        return services.checks.run(input);
      },
    }),
    defineTool({
      name: "read_readiness_report",
      title: "Read a readiness report",
      description:
        "Reads a stored readiness report by its id (from run_readiness_check): the summary while locked, evidence and fix prompts once unlocked. Use it to revisit a report or to see whether an unlock went through.",
      operation: "getCheck",
      annotations: READ_ONLY,
      input: z.strictObject({ id: z.uuid().describe("The report's id, as run_readiness_check returned it") }),
      output: CheckReportSchema,
      run: async ({ id }, { services }) => {
        const stored = await services.checks.find(id);
        if (!stored)
          throw new ApiProblem("not-found", "No such report. The report's id is the only way to it: check it.");
        return services.checks.view(stored);
      },
    }),
  ];
}
