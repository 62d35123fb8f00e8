import { z } from "zod";

/**
 * The `agent_auth` block of OAuth authorization-server metadata, as WorkOS's auth.md protocol defines it
 * (workos/auth.md AUTH.md, step 1b): where an agent registers, and which registration methods the service accepts.
 */
export const AgentAuthSchema = z.object({
  skill: z.string().min(1).optional(),
  register_uri: z.string().min(1),
  claim_uri: z.string().min(1).optional(),
  revocation_uri: z.string().min(1).optional(),
  identity_types_supported: z.array(z.string().min(1)).min(1),
});
export type AgentAuth = z.infer<typeof AgentAuthSchema>;
