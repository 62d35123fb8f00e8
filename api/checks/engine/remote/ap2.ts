import { z } from "zod";

/**
 * AP2's A2A extension (google-agentic-commerce/AP2 docs/a2a-extension.md, v0.1): an agent card entry in
 * `capabilities.extensions` whose `params.roles` MUST name at least one AP2 role.
 */
export const Ap2RoleSchema = z.enum(["merchant", "shopper", "credentials-provider", "payment-processor"]);

export const Ap2ExtensionSchema = z.object({
  uri: z.string(),
  required: z.boolean().optional(),
  params: z.object({ roles: z.array(Ap2RoleSchema).min(1) }),
});

/** v0.1 names `…/ap2/tree/v0.1`; the reference samples declare `…/ap2/v1`. Both are AP2. */
export function isAp2ExtensionUri(uri: string): boolean {
  return /^https:\/\/github\.com\/google-agentic-commerce\/ap2(?:\/|$)/i.test(uri);
}
