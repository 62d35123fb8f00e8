import { TYPES } from "../../../../src/lib/outputs/artifact.ts";
import { paths } from "../../../../src/lib/urls.ts";
import {
  ACCEPT_JSON,
  type DocumentContext,
  fetchJsonDocument,
  firstPresent,
  type JsonDocument,
  pathUrl,
  withJson,
} from "./document.ts";

/** A2A ≥0.3 serves `/.well-known/agent-card.json`; older agents `/.well-known/agent.json`. */
export async function loadA2aCard(context: DocumentContext): Promise<JsonDocument> {
  const document = await firstPresent(
    context,
    [pathUrl(context, "/.well-known/agent-card.json"), pathUrl(context, "/.well-known/agent.json")],
    ACCEPT_JSON,
  );
  return withJson(document);
}

/** v0.2.0 `/.well-known/agent-skills/index.json`, then the v0.1 path `/.well-known/skills/index.json`. */
export async function loadSkillsIndex(context: DocumentContext): Promise<JsonDocument & { legacyPath: boolean }> {
  const document = await firstPresent(
    context,
    [pathUrl(context, "/.well-known/agent-skills/index.json"), pathUrl(context, "/.well-known/skills/index.json")],
    ACCEPT_JSON,
  );
  return { ...withJson(document), legacyPath: document.url.includes("/.well-known/skills/") };
}

export const WEB_BOT_AUTH_MEDIA_TYPE = TYPES.keyDirectory;

export function loadWebBotAuthDirectory(context: DocumentContext): Promise<JsonDocument> {
  return fetchJsonDocument(context, pathUrl(context, paths.keyDirectory()), WEB_BOT_AUTH_MEDIA_TYPE);
}

export function loadProtectedResourceMetadata(context: DocumentContext): Promise<JsonDocument> {
  return fetchJsonDocument(context, pathUrl(context, "/.well-known/oauth-protected-resource"), ACCEPT_JSON);
}

/** RFC 8414 metadata at an issuer, falling back to OpenID Connect discovery. */
export async function loadAuthorizationServerMetadata(
  context: DocumentContext,
  issuer: string = context.target.origin,
): Promise<JsonDocument> {
  const base = issuer.replace(/\/+$/, "");
  const document = await firstPresent(
    context,
    [
      `${new URL(base).origin}/.well-known/oauth-authorization-server${new URL(base).pathname.replace(/^\/$/, "")}`,
      `${base}/.well-known/openid-configuration`,
    ],
    ACCEPT_JSON,
  );
  return withJson(document);
}

export async function loadAgentsJson(context: DocumentContext): Promise<JsonDocument> {
  const document = await firstPresent(
    context,
    [pathUrl(context, "/.well-known/agents.json"), pathUrl(context, "/agents.json")],
    ACCEPT_JSON,
  );
  return withJson(document);
}

export function loadPricing(context: DocumentContext): Promise<JsonDocument> {
  return fetchJsonDocument(context, pathUrl(context, "/pricing.json"), ACCEPT_JSON);
}

/** Commerce protocol manifests (UCP, ACP). */
export async function loadCommerceManifests(
  context: DocumentContext,
): Promise<{ ucp: JsonDocument; acp: JsonDocument }> {
  const [ucp, acp] = await Promise.all([
    fetchJsonDocument(context, pathUrl(context, "/.well-known/ucp"), ACCEPT_JSON),
    fetchJsonDocument(context, pathUrl(context, "/.well-known/acp.json"), ACCEPT_JSON),
  ]);
  return { ucp, acp };
}
