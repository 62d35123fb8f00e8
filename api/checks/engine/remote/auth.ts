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

/** A JWKS as Web Bot Auth publishes it (draft-meunier-webbotauth-httpsig-protocol): Ed25519 OKP keys. */
export const WebBotAuthDirectorySchema = z.object({
  keys: z
    .array(
      z.object({
        kty: z.literal("OKP"),
        crv: z.literal("Ed25519"),
        x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be 32 bytes of base64url"),
        kid: z.string().optional(),
        nbf: z.number().optional(),
        exp: z.number().optional(),
      }),
    )
    .min(1),
});
