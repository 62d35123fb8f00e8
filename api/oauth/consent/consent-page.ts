import { SCOPE_DESCRIPTIONS } from "../../../src/lib/discovery/agents.ts";
import { OAUTH_PATHS } from "../../../src/lib/discovery/oauth.ts";
import type { FieldError } from "../../../src/lib/page-services.ts";
import type { ConsentRequest } from "./consent-service.ts";
import { html, page } from "./page-shell.ts";

/** What the page says about how long access lasts (provider.ts's lifetimes, in words). */
export interface Lifetimes {
  accessTokenMinutes: number;
  refreshDays: number;
}

export interface ConsentPageState {
  request: ConsentRequest;
  csrf: string;
  lifetimes: Lifetimes;
  /** What was typed before a refusal (never the token). */
  values?: Record<string, string>;
  failure?: { message: string; errors: FieldError[] };
}

const OPERATORS = [
  ["individual", "An individual"],
  ["company", "A company"],
  ["organisation", "An organisation"],
] as const;

function hostOf(uri: string): string {
  const parsed = URL.parse(uri);
  return parsed && parsed.host !== "" ? parsed.host : (uri.split(":")[0] ?? uri);
}

function whoAsks({ client, redirectUri }: ConsentRequest): string {
  const name = client.name ? html(client.name) : "An app without a name";
  const identity =
    client.kind === "metadata-document"
      ? `<dt>Identified by</dt><dd>its client metadata document at <strong>${html(client.host ?? "")}</strong><br><code>${html(client.id)}</code></dd>`
      : `<dt>Identified by</dt><dd>a registration the app made itself (<code>${html(client.id)}</code>): its name is <strong>self-asserted</strong>, nothing here confirms who made it</dd>`;
  const hosts = [...new Set(client.redirectUris.map(hostOf))];
  const warning = client.loopbackOnly
    ? `<div class="alert warning" role="note"><p><strong>Every address this app returns to is on this device.</strong> Any program running here could be the one asking. Allow only if you have just started signing in from an app you trust.</p></div>`
    : "";
  return `<section aria-labelledby="who-asks">
<h2 id="who-asks">Who is asking</h2>
<dl>
<dt>App</dt><dd>${name}${client.kind === "registered" ? ' <span class="note">(self-asserted)</span>' : ""}</dd>
${identity}
<dt>Sends you back to</dt><dd><strong>${html(hostOf(redirectUri))}</strong><br><code>${html(redirectUri)}</code></dd>
<dt>All its return addresses</dt><dd><ul>${hosts.map((host) => `<li>${html(host)}</li>`).join("")}</ul></dd>
</dl>
${warning}
</section>`;
}

function whatItMayDo({ scopes, otherScopes, resource }: ConsentRequest, lifetimes: Lifetimes): string {
  const granted = scopes.length
    ? `<ul>${scopes.map((scope) => `<li>${html(SCOPE_DESCRIPTIONS[scope] ?? scope)} <span class="note">(<code>${html(scope)}</code>)</span></li>`).join("")}<li>Read the registration's standing: its name, trust, waiting list and survey.</li></ul>`
    : "<ul><li>Read the registration's standing: its name, trust, waiting list and survey.</li></ul>";
  const other = otherScopes.length
    ? `<p class="note">Also asked for, and never granted here: ${otherScopes.map((scope) => `<code>${html(scope)}</code>`).join(", ")}.</p>`
    : "";
  return `<section aria-labelledby="what">
<h2 id="what">What it may do</h2>
<p>Act for the agent registration you choose below, at <strong>${html(resource.name === "mcp-agent" ? "the agent MCP server" : "the HTTP API")}</strong> (<code>${html(resource.url)}</code>) and nowhere else:</p>
${granted}
${other}
<p>Scopes a registration does not have are left out: a new registration gets the waiting list and the survey; watching sites needs a token that staff issued with that scope.</p>
<h2 id="how-long">How long</h2>
<p>Each access token lasts ${lifetimes.accessTokenMinutes} minutes; the app may renew it for up to ${lifetimes.refreshDays} days, then it must ask again. You can withdraw it sooner: see <a href="/docs/agents/sign-in-from-mcp-clients#revoke-access">how to revoke access</a>.</p>
</section>`;
}

function fieldError(errors: readonly FieldError[], field: string): string {
  const error = errors.find((candidate) => candidate.field === field);
  return error ? `<span class="hint error" id="${field}-error">${html(error.message)}</span>` : "";
}

function input(
  name: string,
  label: string,
  hint: string,
  values: Record<string, string>,
  errors: readonly FieldError[],
  extra = "",
): string {
  const invalid = errors.some((error) => error.field === name);
  const describedBy = [`${name}-hint`, ...(invalid ? [`${name}-error`] : [])].join(" ");
  return `<label for="${name}">${html(label)} <span class="hint" id="${name}-hint">${html(hint)}</span>${fieldError(errors, name)}</label>
<input type="text" id="${name}" name="${name}" value="${html(values[name] ?? "")}" aria-describedby="${describedBy}"${invalid ? ' aria-invalid="true"' : ""}${extra}>`;
}

function whoSignsIn(state: ConsentPageState): string {
  const { request } = state;
  const values = state.values ?? {};
  const errors = state.failure?.errors ?? [];
  const chosen = values.who ?? (request.session ? "session" : request.registrationOpen ? "new" : "existing");
  const radio = (value: string, label: string, disabled = false) =>
    `<div class="choice"><input type="radio" id="who-${value}" name="who" value="${value}"${chosen === value ? " checked" : ""}${disabled ? " disabled" : ""}> <label for="who-${value}">${label}</label></div>`;
  const session = request.session
    ? radio(
        "session",
        `Continue as <strong>${html(request.session.agentName)}</strong> <code>${html(request.session.agentId)}</code>`,
      )
    : "";
  const operator = `<label for="operator_type">Operated by${fieldError(errors, "operator_type")}</label>
<select id="operator_type" name="operator_type"${errors.some((error) => error.field === "operator_type") ? ' aria-invalid="true" aria-describedby="operator_type-error"' : ""}>${OPERATORS.map(([value, label]) => `<option value="${value}"${(values.operator_type ?? "company") === value ? " selected" : ""}>${label}</option>`).join("")}</select>`;
  const closed = request.registrationOpen ? "" : ' <span class="note">(closed for now)</span>';
  return `<fieldset>
<legend>Which agent registration is this for?</legend>
${session}
${radio("new", `Register a new agent${closed}`, !request.registrationOpen)}
<div>
${input("agent_name", "Agent name", "How the agent introduces itself, e.g. Docs Scout.", values, errors)}
${input("agent_type", "Kind of agent", "e.g. research assistant, coding agent.", values, errors)}
${operator}
${input("principal_contact", "Contact e-mail (optional)", "Where staff can reach the operator about this registration.", values, errors, ' autocomplete="email" inputmode="email"')}
</div>
${radio("existing", "An existing registration, proved with its agent token")}
<div>
<label for="agent_token">Agent token <span class="hint" id="agent_token-hint">The registration's <code>agt_…</code> token: sent once to check it, never kept by your browser or shown again.</span>${fieldError(errors, "agent_token")}</label>
<input type="text" class="secret" id="agent_token" name="agent_token" value="" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="agent_token-hint${errors.some((error) => error.field === "agent_token") ? " agent_token-error" : ""}">
</div>
</fieldset>`;
}

function problemSummary(failure: ConsentPageState["failure"]): string {
  if (!failure) return "";
  const links = failure.errors
    .filter((error) => error.field !== "form")
    .map(
      (error) =>
        `<li><a href="#${html(error.field === "who" ? "who-new" : error.field)}">${html(error.message)}</a></li>`,
    )
    .join("");
  return `<div class="alert error" role="alert" tabindex="-1"><h2>There is a problem</h2><p>${html(failure.message)}</p>${links ? `<ul>${links}</ul>` : ""}</div>`;
}

/** The consent page: who asks, for what, where to, for how long; then who it is for, and Allow or Deny. */
export function consentPage(state: ConsentPageState): string {
  const { request } = state;
  const asker = request.client.name ?? request.client.host ?? "An app";
  return page(
    `Allow ${asker} to act for an agent registration?`,
    `<h1>Allow ${html(asker)} to act for an agent registration?</h1>
${problemSummary(state.failure)}
${whoAsks(request)}
${whatItMayDo(request, state.lifetimes)}
<form method="post" action="${OAUTH_PATHS.consent}/${html(request.uid)}" novalidate>
<input type="hidden" name="csrf" value="${html(state.csrf)}">
${whoSignsIn(state)}
<div class="actions">
<button type="submit" class="allow" name="decision" value="allow">Allow</button>
<button type="submit" class="deny" name="decision" value="deny">Deny</button>
</div>
</form>`,
  );
}
