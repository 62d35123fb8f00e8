import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { toNodeHandler } from "h3/node";
import type { Logger } from "../../api/platform/log.ts";
import type { ComposeOptions } from "../../api/wiring/compose.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { Person, type SignInChoice } from "./oauth-person.ts";
import { testBuild } from "./test-build.ts";

/**
 * The app on a real socket at the address its build names (the authorization server's issuer, the
 * resources' URLs and the consent page's cookies all follow SITE_URL), as OAuth clients meet it.
 */
export interface OAuthBed {
  t: TestApp;
  base: string;
  mcpAgent: string;
  close(): Promise<void>;
}

export async function startOAuthBed(
  options: { env?: Record<string, string>; log?: Logger } & ComposeOptions = {},
): Promise<OAuthBed> {
  const { port, siteUrl } = testBuild();
  const t = await createTestApp(options);
  const server: Server = createServer(toNodeHandler(t.app));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  // The public URL may be https behind a proxy (SITE_URL): the socket is this one either way.
  void siteUrl;
  const base = t.config.siteUrl;
  return {
    t,
    base,
    mcpAgent: `${base}/mcp/agent`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

/** Where an SDK client is sent back to: never contacted, the person stops there. */
export const CALLBACK = "http://127.0.0.1:9/callback";

/**
 * An OAuthClientProvider for the official SDK clients (v1 and v2 share its shape), driven by a
 * person: the authorization URL is opened, the consent page filled and posted, and the code (and
 * `iss`) taken from where the browser would have landed.
 */
export class PersonDrivenClient {
  readonly person: Person;
  readonly choice: SignInChoice;
  readonly clientMetadataUrl: string | undefined;
  information: Record<string, unknown> | undefined;
  stored: Record<string, unknown> | undefined;
  verifier = "";
  /** The last callback: its code, iss, error. */
  callback: URLSearchParams | null = null;
  authorizationUrls: URL[] = [];

  constructor(base: string, choice: SignInChoice, clientMetadataUrl?: string) {
    this.person = new Person(base);
    this.choice = choice;
    this.clientMetadataUrl = clientMetadataUrl;
  }

  get redirectUrl() {
    return CALLBACK;
  }

  get clientMetadata() {
    return {
      client_name: "SDK test client",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation() {
    return this.information as { client_id: string } | undefined;
  }

  saveClientInformation(information: Record<string, unknown>) {
    this.information = information;
  }

  tokens() {
    return this.stored as { access_token: string; token_type: string } | undefined;
  }

  saveTokens(tokens: Record<string, unknown>) {
    this.stored = tokens;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  /** The v2 client binds the callback to the authorization server it discovered (SEP-2352): kept like the verifier. */
  discovery: OAuthDiscoveryState | undefined;

  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery;
  }

  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
    const outcome = await this.person.signIn(url, this.choice);
    if (!outcome.redirect)
      throw new Error(`the sign-in did not come back (${outcome.last.status}): ${outcome.lastBody.slice(0, 300)}`);
    this.callback = outcome.redirect.searchParams;
  }

  get code(): string {
    const code = this.callback?.get("code");
    if (!code) throw new Error(`no code in the callback: ${this.callback?.toString()}`);
    return code;
  }

  get accessToken(): string {
    const token = this.stored?.access_token;
    if (typeof token !== "string") throw new Error("no access token yet");
    return token;
  }
}

/** A form post to one of the authorization server's endpoints, as a client library sends it. */
export async function postForm(
  url: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(fields),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** One JSON-RPC request to an MCP endpoint (a tool call by default), with a bearer token. */
export async function mcpCall(
  url: string,
  token: string | null,
  body: Record<string, unknown> = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "read_agent_standing", arguments: {} },
  },
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** PKCE S256 (RFC 7636 §4.2): a verifier and its challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A client speaking OAuth by hand: registers by DCR, builds authorization URLs, exchanges codes. */
export class RawClient {
  readonly base: string;
  clientId = "";
  readonly redirectUri: string;

  constructor(base: string, redirectUri = CALLBACK) {
    this.base = base;
    this.redirectUri = redirectUri;
  }

  async register(metadata: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${this.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        client_name: "Raw client",
        redirect_uris: [this.redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        ...metadata,
      }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status === 201) this.clientId = String(body.client_id);
    return { status: response.status, body };
  }

  authorizationUrl(challenge: string, overrides: Record<string, string | null> = {}): URL {
    const url = new URL(`${this.base}/oauth/authorize`);
    const params: Record<string, string | null> = {
      response_type: "code",
      client_id: this.clientId,
      redirect_uri: this.redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "waitlist:write survey:write",
      resource: `${this.base}/mcp/agent`,
      state: "state-123",
      ...overrides,
    };
    for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
    return url;
  }

  exchange(
    code: string,
    fields: Record<string, string | null>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const all: Record<string, string | null> = {
      grant_type: "authorization_code",
      code,
      redirect_uri: this.redirectUri,
      client_id: this.clientId,
      resource: `${this.base}/mcp/agent`,
      ...fields,
    };
    return postForm(
      `${this.base}/oauth/token`,
      Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null)),
    );
  }
}
