import { defineCheck, judge, notApplicable } from "../../check-types.ts";
import { loadA2aCard } from "../../documents/agent-docs.ts";
import { describeIssues, isRecord } from "../../parse/json.ts";
import { Ap2ExtensionSchema, isAp2ExtensionUri } from "../../remote/ap2.ts";

const AP2_EXTENSION_SPEC = "https://github.com/google-agentic-commerce/AP2/blob/b17ae16/docs/a2a-extension.md";

/** `capabilities.extensions` entries of an A2A card whose URI is AP2's. */
function ap2Extensions(card: Record<string, unknown>): unknown[] {
  const capabilities = card.capabilities;
  const extensions = isRecord(capabilities) && Array.isArray(capabilities.extensions) ? capabilities.extensions : [];
  return extensions.filter(
    (extension) => isRecord(extension) && typeof extension.uri === "string" && isAp2ExtensionUri(extension.uri),
  );
}

export const ap2 = defineCheck({
  id: "commerce.ap2",
  title: "AP2 (Agent Payments Protocol) is declared correctly in the A2A agent card",
  category: "commerce",
  severity: "low",
  maturity: "draft",
  profiles: ["commerce", "agent"],
  remediation:
    "If your agent takes part in AP2 payments, declare the AP2 extension in the A2A card's capabilities.extensions with params.roles naming its roles; a merchant agent marks it required.",
  prompt:
    'In our A2A agent card (/.well-known/agent-card.json) add to capabilities.extensions: {"uri":"https://github.com/google-agentic-commerce/ap2/tree/v0.1","description":"…","required":true,"params":{"roles":["merchant"]}} with the AP2 roles our agent really performs (merchant, shopper, credentials-provider, payment-processor).',
  specUrls: [AP2_EXTENSION_SPEC, "https://a2a-protocol.org/latest/topics/extensions/"],
  requests: "the A2A agent card (already fetched for `a2a.card`)",
  passes:
    "an AP2 extension in `capabilities.extensions` whose `params.roles` names AP2 roles (MUST, else `fail`), marked `required` by a merchant (SHOULD, else `warn`); no card or no AP2 is `n/a`",
  async run(context) {
    const card = await loadA2aCard(context);
    if (card.state !== "found" || card.json?.ok !== true || !isRecord(card.json.value))
      return notApplicable("no A2A agent card, and AP2 is declared in one (a2a.card reports the card)");
    const declared = ap2Extensions(card.json.value);
    if (declared.length === 0) return notApplicable("the A2A agent card declares no AP2 extension; AP2 is optional");
    const problems: string[] = [];
    const cautions: string[] = [];
    const roles = new Set<string>();
    for (const entry of declared) {
      const extension = Ap2ExtensionSchema.safeParse(entry);
      if (!extension.success) {
        problems.push(`the AP2 extension's params MUST name at least one AP2 role: ${describeIssues(extension.error)}`);
        continue;
      }
      for (const role of extension.data.params.roles) roles.add(role);
      if (extension.data.params.roles.includes("merchant") && extension.data.required !== true)
        cautions.push("a merchant agent SHOULD mark the AP2 extension required (AP2 A2A extension, AgentCard)");
    }
    context.trail.note(card.response, `AP2 extension declared ${declared.length} time(s)`);
    return judge({ problems, cautions }, `AP2 declared in the A2A agent card with role(s): ${[...roles].join(", ")}`);
  },
});
