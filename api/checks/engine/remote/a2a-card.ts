import { z } from "zod";

/** A2A v1.0 agent card: `supportedInterfaces` replaced the top-level `url`/`preferredTransport`. */
export const A2aCardV1Schema = z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  version: z.string().min(1),
  supportedInterfaces: z
    .array(
      z.object({
        url: z.string().min(1),
        protocolBinding: z.enum(["JSONRPC", "GRPC", "HTTP+JSON"]),
        protocolVersion: z.string().optional(),
      }),
    )
    .min(1),
  capabilities: z.record(z.string(), z.unknown()),
  defaultInputModes: z.array(z.string()).min(1),
  defaultOutputModes: z.array(z.string()).min(1),
  skills: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().min(1),
      description: z.string().min(1),
      tags: z.array(z.string()),
    }),
  ),
});

/** A2A v0.2/v0.3 cards, still common: a top-level `url`. */
export const A2aCardLegacySchema = z.object({
  name: z.string().min(1),
  description: z.string().min(1),
  url: z.string().min(1),
  version: z.string().min(1),
  capabilities: z.record(z.string(), z.unknown()),
  skills: z.array(z.unknown()),
});

/** Public JSON should not carry credentials; these member names are how they usually leak. */
export const SECRET_MEMBER_PATTERN =
  /^(api[-_]?key|client[-_]?secret|password|secret|access[-_]?token|private[-_]?key)$/i;
