import { defineCheck, fail, listProblems, pass, scanError, warn } from "../../check-types.ts";
import { AGENT_TREE_RULES } from "../../render/agent-tree.ts";
import { hasHome, pathOf, recordPage, renderedHome } from "./rendered-pages.ts";

const AGENT_ACCESSIBILITY = "https://developer.chrome.com/docs/lighthouse/agentic-browsing/accessibility-for-agents";

export const renderedAgentTree = defineCheck({
  id: "render.agent-tree",
  rendered: true,
  title: "The rendered page's accessibility tree is well-formed for agents",
  category: "content",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  requests: "the homepage, rendered in Chromium, checked by axe-core",
  passes: `none of the ${AGENT_TREE_RULES.length} axe-core rules of Lighthouse's agent-accessibility-tree audit (names for buttons, links and fields, valid ARIA, a title, no focusable hidden content) is broken on the rendered homepage`,
  remediation:
    "Give every button, link and form field an accessible name, use only valid ARIA roles and attributes, and keep hidden content out of the focus order: browser agents act on the accessibility tree.",
  prompt:
    "Fix the accessibility-tree problems axe-core reports on our homepage (button-name, link-name, label, aria-* rules, document-title): every control needs an accessible name and every ARIA role and attribute must be valid, because browser agents navigate by the accessibility tree.",
  specUrls: [AGENT_ACCESSIBILITY, "https://www.w3.org/TR/wai-aria-1.2/", "https://www.w3.org/TR/WCAG22/"],
  async run(context) {
    const rendered = await renderedHome(context);
    if (!hasHome(rendered)) return rendered;
    const { site, home } = rendered;
    if (home.agentTree === null) return scanError("axe-core could not run on the rendered homepage");
    const violations = home.agentTree.map(
      (violation) => `${violation.id} (${violation.nodes} element(s), first ${violation.target}: ${violation.help})`,
    );
    recordPage(context, site, home, violations.length === 0 ? "no agent-tree rule broken" : listProblems(violations));
    if (violations.length === 0)
      return pass(
        `the rendered ${pathOf(home)} breaks none of the ${AGENT_TREE_RULES.length} agent-accessibility-tree rules`,
      );
    return {
      ...fail(
        `the rendered ${pathOf(home)} breaks ${violations.length} agent-accessibility-tree rule(s): ${listProblems(violations)}`,
      ),
      clauses: home.agentTree.map((violation) => ({
        keyword: "MUST" as const,
        source: `axe-core ${violation.id}`,
        problem: violation.help,
      })),
    };
  },
});

/** web.dev's threshold for a good CLS, which Lighthouse's scoring follows (0.1 scores 0.9). */
const GOOD_SHIFT = 0.1;

export const renderedLayoutShift = defineCheck({
  id: "render.layout-shift",
  rendered: true,
  title: "The page does not shift under an agent's pointer while it loads",
  category: "content",
  severity: "low",
  maturity: "draft",
  profiles: "all",
  requests: "the homepage, rendered in Chromium (desktop viewport, media and fonts not loaded)",
  passes:
    'cumulative layout shift (the largest session window of unexpected shifts, buffered `layout-shift` entries) is at most 0.1 (web.dev\'s "good"); `warn` above (a recommendation, never a fail)',
  remediation:
    "Reserve space for images, embeds and injected content (width and height, aspect-ratio, min-height) so the layout does not move after it first appears.",
  prompt:
    "Reduce cumulative layout shift on our homepage below 0.1: give images and embeds width/height or aspect-ratio, reserve space for banners and content injected by scripts, and avoid inserting content above what is already shown.",
  specUrls: ["https://web.dev/articles/cls", "https://wicg.github.io/layout-instability/"],
  async run(context) {
    const rendered = await renderedHome(context);
    if (!hasHome(rendered)) return rendered;
    const { site, home } = rendered;
    if (home.layoutShift === null) return scanError("the layout shift of the rendered homepage could not be read");
    const shift = Math.round(home.layoutShift * 1000) / 1000;
    recordPage(context, site, home, `cumulative layout shift ${shift}`);
    const measured = `cumulative layout shift of ${pathOf(home)} is ${shift}`;
    if (shift <= GOOD_SHIFT) return pass(measured);
    return {
      ...warn(`${measured} (good is at most ${GOOD_SHIFT})`),
      clauses: [{ keyword: "SHOULD", source: "web.dev, CLS thresholds", problem: `CLS ${shift} > ${GOOD_SHIFT}` }],
    };
  },
});
