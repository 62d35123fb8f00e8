import { z } from "zod";

/** RFC 8414 §2 authorization server metadata (the fields agents rely on). */
export const AuthorizationServerMetadataSchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.string().min(1).optional(),
  token_endpoint: z.string().min(1),
  jwks_uri: z.string().min(1).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  registration_endpoint: z.string().optional(),
});

/** RFC 9728 §2 protected resource metadata. */
export const ProtectedResourceMetadataSchema = z.object({
  resource: z.string().min(1),
  authorization_servers: z.array(z.string()).optional(),
  scopes_supported: z.array(z.string()).optional(),
  bearer_methods_supported: z.array(z.string()).optional(),
  resource_documentation: z.string().optional(),
});
