import { z } from "zod";
import type { RequestSchemas } from "../../src/schemas/requests/bodies.ts";
import { CheckReportSchema } from "../../src/schemas/responses/checks.ts";
import { operationTool, READ_ONLY, type Tool } from "../platform/mcp-tool.ts";
import type { CheckOperations } from "./operations.ts";

/** Readiness checks through MCP: the same operations as the HTTP API, under the same limits. */
export function checkTools(operations: CheckOperations, bodySchemas: RequestSchemas): Tool[] {
  return [
    operationTool(operations.run, bodySchemas, {
      name: "run_readiness_check",
      title: "Run an agent-readiness check",
      description:
        "Checks one website for agent readiness (discovery files, Markdown, bot policy, OpenAPI, MCP, API hygiene) and returns the free summary: score, level and one line per check, plus how to unlock the full report. Use it when asked whether a site is ready for AI agents or what to fix. Set render to true to also load the site in a browser: what agents that do not run JavaScript miss, WebMCP tools registered at runtime, the accessibility tree and layout shift. Takes up to ~15 s (~30 s rendered); counts against the same free daily checks as POST /api/v1/checks.",
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      output: CheckReportSchema,
    }),
    operationTool(operations.read, bodySchemas, {
      name: "read_readiness_report",
      title: "Read a readiness report",
      description:
        "Reads a stored readiness report by its id (from run_readiness_check): the summary while locked, evidence and fix prompts once unlocked. Use it to revisit a report or to see whether an unlock went through.",
      annotations: READ_ONLY,
      params: z.strictObject({ id: z.uuid().describe("The report's id, as run_readiness_check returned it") }),
      output: CheckReportSchema,
    }),
  ];
}
