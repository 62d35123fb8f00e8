import { formatBytes } from "../../../../src/lib/format-bytes.ts";
import type { RenderSummary } from "../../../../src/schemas/report.ts";
import type { RenderOutcome } from "./rendered-site.ts";

/** The report's account of the rendering: what was rendered and what it cost, or why nothing was. */
export function summarizeRendering(outcome: RenderOutcome): RenderSummary {
  if (outcome.status !== "rendered")
    return {
      status: outcome.status,
      note: outcome.note,
      user_agent: null,
      pages: [],
      requests: 0,
      connections: 0,
      bytes: 0,
      hosts: 0,
      refused: 0,
      duration_ms: 0,
    };
  const { spending, pages } = outcome;
  const refused = spending.refused === 0 ? "" : `; the guard refused ${spending.refused}`;
  return {
    status: "rendered",
    note: `${pages.length} page(s) rendered in Chromium through the scan's guard proxy: ${spending.requests} requests, ${formatBytes(spending.bytes)} from ${spending.hosts} host(s)${refused}`,
    user_agent: outcome.userAgent,
    pages: pages.map((page) => ({
      role: page.role,
      url: page.url,
      status: page.status !== null && page.status >= 100 && page.status <= 599 ? page.status : null,
      duration_ms: page.durationMs,
      error: page.error,
    })),
    requests: spending.requests,
    connections: spending.connections,
    bytes: spending.bytes,
    hosts: spending.hosts,
    refused: spending.refused,
    duration_ms: spending.durationMs,
  };
}
