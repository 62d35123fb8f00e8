import type Provider from "oidc-provider";
import type { Interaction, InteractionResults } from "oidc-provider";
import type { ProtectedResource } from "../../../src/lib/discovery/oauth.ts";
import type { FieldError, FormResult } from "../../../src/lib/page-services.ts";
import { AGENT_SCOPES, DEFAULT_AGENT_SCOPES } from "../../../src/lib/registry.ts";
import type { Sql } from "../../db/sql.ts";
import { allLoopback } from "../redirect-uris.ts";
import type { ResourceServers } from "../resources.ts";
import { redirectsDigest, rememberConsent } from "./remembered.ts";

/** An agent registration as the consent page names it. */
export interface Registration {
  agentId: string;
  agentName: string;
}

/**
 * What the consent page may ask of the agents feature, lent by the wiring: the service has
 * registrations, not accounts, so "who is signing in" is a registration, new or proved.
 */
export interface Registrations {
  /** Registers an agent from the fields of POST /api/v1/agents/register, under its rules (switch, rate limit, schema); no agent token is made. */
  register(fields: Record<string, string>, address: string): Promise<FormResult<Registration>>;
  /** The registration an agent token (`agt_…`) belongs to, with that token's scopes; failures count against the address. */
  prove(token: string, address: string): Promise<FormResult<Registration & { scopes: readonly string[] }>>;
  /** A registration that still stands (known, not suspended), or null. */
  standing(agentId: string): Promise<Registration | null>;
  /** Whether new registrations are open (the `agent_register` switch). */
  registrationOpen(): Promise<boolean>;
}

/** One authorization request, as the consent page shows it. */
export interface ConsentRequest {
  uid: string;
  /** "login": no registration yet in this browser; "consent": the browser's registration, asked for more. */
  prompt: string;
  client: {
    id: string;
    name: string | null;
    /** A client ID metadata document (its URL is the client's identity) or a self-asserted dynamic registration. */
    kind: "metadata-document" | "registered";
    /** The host of a metadata document's URL: who vouches for the client. */
    host: string | null;
    redirectUris: readonly string[];
    loopbackOnly: boolean;
  };
  redirectUri: string;
  /** The `resource` parameter as sent, and what it names. */
  resourceIndicator: string;
  resource: ProtectedResource;
  /** Scopes of our vocabulary the client asks for, and any others (refused). */
  scopes: readonly string[];
  otherScopes: readonly string[];
  /** The registration this browser is signed in as, when it still stands. */
  session: Registration | null;
  registrationOpen: boolean;
}

export type ConsentDecision =
  | { kind: "result"; result: InteractionResults; endSession?: string }
  | { kind: "retry"; status: number; message: string; errors: FieldError[] };

export interface ConsentForm {
  decision: string;
  who: string;
  fields: Record<string, string>;
  token: string;
}

export interface ConsentServiceDeps {
  provider: Provider;
  resources: ResourceServers;
  registrations: Registrations;
  db: () => Sql;
  now: () => Date;
}

const REGISTRATION_FIELDS = ["agent_name", "agent_type", "operator_type", "principal_contact"] as const;

/** The form's registration fields that were filled in (an empty optional field is left out, as the API wants). */
export function registrationFields(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(REGISTRATION_FIELDS.flatMap((name) => (form[name] ? [[name, form[name]]] : [])));
}

export class ConsentService {
  private readonly deps: ConsentServiceDeps;

  constructor(deps: ConsentServiceDeps) {
    this.deps = deps;
  }

  /** What the request asks, from the interaction the library saved (its parameters are already validated). */
  async read(details: Interaction): Promise<ConsentRequest> {
    const { provider, resources, registrations } = this.deps;
    const params = details.params;
    const clientId = String(params.client_id);
    const client = await provider.Client.find(clientId);
    if (!client) throw new Error(`the client ${clientId} of interaction ${details.uid} is gone`);
    const indicator = String(params.resource);
    const resource = resources.find((candidate) => candidate.url === indicator.replace(/\/$/, ""));
    if (!resource) throw new Error(`the resource ${indicator} of interaction ${details.uid} is not ours`);
    const requested = String(params.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const metadataDocument = clientId.startsWith("https://");
    const redirectUris = client.redirectUris ?? [];
    const sessionAgent = details.session?.accountId;
    return {
      uid: details.uid,
      prompt: details.prompt.name,
      client: {
        id: clientId,
        name: client.clientName ?? null,
        kind: metadataDocument ? "metadata-document" : "registered",
        host: metadataDocument ? new URL(clientId).host : null,
        redirectUris,
        loopbackOnly: allLoopback(redirectUris),
      },
      redirectUri: String(params.redirect_uri),
      resourceIndicator: indicator,
      resource,
      scopes: requested.filter((scope) => AGENT_SCOPES.includes(scope)),
      otherScopes: requested.filter((scope) => !AGENT_SCOPES.includes(scope)),
      session: sessionAgent ? await registrations.standing(sessionAgent) : null,
      registrationOpen: await registrations.registrationOpen(),
    };
  }

  /**
   * The person's answer. Deny ends the request with `access_denied` (sent to the redirect URI the
   * library already validated); Allow settles who signs in (the browser's registration, a new one, or
   * one proved by its token), grants what that registration may have of what was asked, and remembers it.
   */
  async decide(
    details: Interaction,
    request: ConsentRequest,
    form: ConsentForm,
    address: string,
  ): Promise<ConsentDecision> {
    if (form.decision !== "allow")
      return {
        kind: "result",
        result: { error: "access_denied", error_description: "The request was declined on the consent page." },
      };
    const who = await this.signIn(request, form, address);
    if ("retry" in who) return who.retry;
    const granted = request.scopes.filter((scope) => who.grantable.includes(scope));
    const refused = [...request.scopes.filter((scope) => !who.grantable.includes(scope)), ...request.otherScopes];
    const grantId = await this.grant(details, request, who.registration.agentId, granted, refused);
    await rememberConsent(this.deps.db(), {
      agentId: who.registration.agentId,
      clientId: request.client.id,
      redirectUri: request.redirectUri,
      resource: request.resourceIndicator,
      scopes: granted,
      clientRedirectsDigest: redirectsDigest(request.client.redirectUris),
      grantId,
      createdAt: this.deps.now().toISOString(),
    });
    const current = details.session;
    return {
      kind: "result",
      result: { login: { accountId: who.registration.agentId, remember: true }, consent: { grantId } },
      ...(current?.accountId && current.accountId !== who.registration.agentId ? { endSession: current.cookie } : {}),
    };
  }

  /**
   * A browser acts for one registration at a time: choosing another ends the browser's session, once
   * the result is saved. The library would otherwise take the change of account as a logout of the old
   * one, and answer with its end-session page (a script this server neither serves nor allows).
   */
  async endBrowserSession(uid: string, sessionId: string): Promise<void> {
    const { provider } = this.deps;
    const interaction = await provider.Interaction.find(uid);
    if (interaction?.session) {
      // As the library does itself on a change of account: the resumed request starts a new session.
      Reflect.deleteProperty(interaction.session, "uid");
      await interaction.save(interaction.exp - Math.floor(this.deps.now().getTime() / 1000));
    }
    await provider.Session.adapter.destroy(sessionId);
  }

  private async signIn(
    request: ConsentRequest,
    form: ConsentForm,
    address: string,
  ): Promise<{ registration: Registration; grantable: readonly string[] } | { retry: ConsentDecision }> {
    const retry = (status: number, message: string, errors: FieldError[] = []) => ({
      retry: { kind: "retry" as const, status, message, errors },
    });
    if (form.who === "session") {
      if (!request.session)
        return retry(409, "This browser is no longer signed in as a registration; choose one below.");
      return { registration: request.session, grantable: DEFAULT_AGENT_SCOPES };
    }
    if (form.who === "existing") {
      if (form.token.trim() === "")
        return retry(422, "Paste the registration's agent token.", [
          { field: "agent_token", message: "Paste the agent token (agt_…) of the registration." },
        ]);
      const proved = await this.deps.registrations.prove(form.token.trim(), address);
      if (!proved.ok) return retry(proved.status, proved.message, [{ field: "agent_token", message: proved.message }]);
      return { registration: proved.value, grantable: proved.value.scopes };
    }
    if (form.who === "new") {
      const registered = await this.deps.registrations.register(registrationFields(form.fields), address);
      if (!registered.ok) return retry(registered.status, registered.message, registered.errors);
      return { registration: registered.value, grantable: DEFAULT_AGENT_SCOPES };
    }
    return retry(422, "Choose who this access is for.", [{ field: "who", message: "Choose a registration." }]);
  }

  /** A grant for the registration: what it may have of the request, and the rest refused (so the library stops asking). */
  private async grant(
    details: Interaction,
    request: ConsentRequest,
    agentId: string,
    granted: string[],
    refused: string[],
  ) {
    const { Grant } = this.deps.provider;
    const existing = details.grantId ? await Grant.find(details.grantId) : undefined;
    const grant =
      existing?.accountId === agentId ? existing : new Grant({ accountId: agentId, clientId: request.client.id });
    if (granted.length > 0) {
      grant.addOIDCScope(granted.join(" "));
      grant.addResourceScope(request.resourceIndicator, granted.join(" "));
    }
    if (refused.length > 0) {
      grant.rejectOIDCScope(refused.join(" "));
      grant.rejectResourceScope(request.resourceIndicator, refused.join(" "));
    }
    return grant.save();
  }
}
