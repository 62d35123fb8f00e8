import { z } from "zod";

/** wild-card-ai/agents-json `agentsJson.schema.json`, the required members. */
export const WildCardAgentsJsonSchema = z.object({
  agentsJson: z.string().regex(/^\d+\.\d+\.\d+$/, "must be a semantic version such as 0.1.0"),
  info: z.object({ title: z.string().min(1), version: z.string().min(1), description: z.string().min(1) }),
  sources: z
    .array(z.object({ id: z.string().min(1), path: z.string().min(1), description: z.string().optional() }))
    .min(1),
  flows: z.array(
    z.object({
      id: z.string().min(1),
      title: z.string().min(1),
      description: z.string().min(1),
      actions: z.array(
        z.object({ id: z.string().min(1), sourceId: z.string().min(1), operationId: z.string().min(1) }),
      ),
    }),
  ),
});
