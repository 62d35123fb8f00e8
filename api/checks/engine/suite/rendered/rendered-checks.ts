import type { CheckDefinition } from "../../check-types.ts";
import { renderedAgentTree, renderedLayoutShift } from "./browsing.ts";
import { renderedContent, renderedJsonLd } from "./content.ts";
import { renderedSoft404 } from "./soft404.ts";
import { renderedWebMcpSchemas, renderedWebMcpTools } from "./webmcp.ts";

/**
 * The checks that judge pages rendered in Chromium (`render: true`): the differences between what the server sends and
 * what a browser shows, WebMCP as a browser agent finds it, the accessibility tree and layout shift. Without rendering
 * they are n/a.
 */
export const renderedChecks: readonly CheckDefinition[] = [
  renderedContent,
  renderedJsonLd,
  renderedSoft404,
  renderedWebMcpTools,
  renderedWebMcpSchemas,
  renderedAgentTree,
  renderedLayoutShift,
];
