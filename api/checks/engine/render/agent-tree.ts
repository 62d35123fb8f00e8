import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type Axe from "axe-core";
import type { Page } from "playwright-core";
import { z } from "zod";
import type { AgentTreeViolation } from "./rendered-site.ts";

/**
 * The axe-core rules of Lighthouse 13's `agent-accessibility-tree` audit (core/audits/agentic/agent-accessibility-tree.js,
 * TARGET_RULES): what makes the accessibility tree an agent navigates by well-formed: names for controls and links,
 * valid ARIA, a title, no focusable hidden content.
 */
export const AGENT_TREE_RULES: readonly string[] = Object.freeze([
  "button-name",
  "input-button-name",
  "input-image-alt",
  "label",
  "link-name",
  "select-name",
  "document-title",
  "aria-allowed-attr",
  "aria-allowed-role",
  "aria-command-name",
  "aria-conditional-attr",
  "aria-dialog-name",
  "aria-hidden-body",
  "aria-hidden-focus",
  "aria-input-field-name",
  "aria-prohibited-attr",
  "aria-required-attr",
  "aria-required-children",
  "aria-required-parent",
  "aria-roles",
  "aria-text",
  "aria-toggle-field-name",
  "aria-tooltip-name",
  "aria-treeitem-name",
  "aria-valid-attr",
  "aria-valid-attr-value",
  "duplicate-id-aria",
  "definition-list",
  "table-duplicate-name",
  "tabindex",
  "autocomplete-valid",
  "presentation-role-conflict",
  "svg-img-alt",
]);

declare global {
  interface Window {
    /** axe-core, once its source has been evaluated in the page. */
    axe: typeof Axe;
  }
}

let axeSource: Promise<string> | undefined;

/** axe-core's browser build, read once per process. */
function loadAxe(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  return axeSource;
}

// What the page hands back is the page's to forge: read as untrusted data, bounded.
const ViolationsSchema = z
  .array(
    z.object({
      id: z.string().max(100),
      help: z.string().max(500),
      nodes: z.int().min(0),
      target: z.string().max(300),
    }),
  )
  .max(AGENT_TREE_RULES.length);

/**
 * Runs axe-core on the page as it stands, limited to the agent-accessibility-tree rules. The source is evaluated
 * through the DevTools protocol, which the page's Content-Security-Policy does not govern. Null when axe could not
 * run (the page navigated away, or broke axe).
 */
export async function agentTreeViolations(page: Page): Promise<AgentTreeViolation[] | null> {
  try {
    await page.evaluate(await loadAxe());
    const raw: unknown = await page.evaluate(
      async (rules) => {
        const result = await window.axe.run(document, {
          runOnly: { type: "rule", values: rules },
          resultTypes: ["violations"],
        });
        return result.violations.map((violation) => ({
          id: violation.id,
          help: violation.help.slice(0, 500),
          nodes: violation.nodes.length,
          target: String(violation.nodes[0]?.target?.[0] ?? "").slice(0, 300),
        }));
      },
      [...AGENT_TREE_RULES],
    );
    const parsed = ViolationsSchema.safeParse(raw);
    return parsed.success ? parsed.data.filter((violation) => AGENT_TREE_RULES.includes(violation.id)) : null;
  } catch {
    return null;
  }
}
