import { decodeEntities, tags } from "../../api/checks/engine/parse/html.ts";

/** A browser's cookies, enough of it for the sign-in: names, values and paths, sent where their path allows. */
export class CookieJar {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? "/";
      const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute) || /1970/.test(attribute));
      if (expired || value === "") this.#cookies.delete(`${name}|${path}`);
      else this.#cookies.set(`${name}|${path}`, { value, path });
    }
  }

  header(url: URL): string {
    return [...this.#cookies]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([key, cookie]) => `${key.split("|")[0]}=${cookie.value}`)
      .join("; ");
  }

  names(): string[] {
    return [...this.#cookies.keys()].map((key) => key.split("|")[0] ?? "");
  }
}

/** A form as a browser would submit it: its action, and the fields it sends before anyone types. */
export interface ParsedForm {
  action: string;
  fields: Map<string, string>;
  buttons: { name: string; value: string }[];
}

/** Reads the page's (first) form the way a browser builds a submission: hidden and text inputs, checked radios, selected options. */
export function parseForm(html: string): ParsedForm {
  const form = tags(html, "form")[0];
  if (!form) throw new Error("the page has no form");
  const fields = new Map<string, string>();
  for (const input of tags(html, "input")) {
    const { name, type = "text", value = "" } = input;
    if (!name || "disabled" in input) continue;
    if (type === "radio" || type === "checkbox") {
      if ("checked" in input) fields.set(name, value);
    } else fields.set(name, value);
  }
  for (const select of html.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
    const name = /\bname="([^"]*)"/.exec(select[1] ?? "")?.[1];
    const options = tags(select[2] ?? "", "option");
    const chosen = options.find((option) => "selected" in option) ?? options[0];
    if (name && chosen) fields.set(name, chosen.value ?? "");
  }
  const buttons = tags(html, "button").flatMap(({ name, value }) => (name ? [{ name, value: value ?? "" }] : []));
  return { action: decodeEntities(form.action ?? ""), fields, buttons };
}

export interface SignInChoice {
  /** Which button: Allow (default) or Deny. */
  decision?: "allow" | "deny";
  /** Which registration: a new one (the fields), an existing one (its agent token), or the browser's own. */
  who?: "new" | "existing" | "session";
  fields?: Record<string, string>;
  token?: string;
  /** Leave the CSRF token out, as a forged post would. */
  dropCsrf?: boolean;
}

export interface SignInOutcome {
  /** Where the server finally sent the browser outside itself (the client's redirect URI), if it did. */
  redirect: URL | null;
  /** The last response from the server (an error page, or the consent page refused). */
  last: Response;
  lastBody: string;
  /** The consent page as the person saw it, if one was shown. */
  consentHtml: string | null;
}

/**
 * A person in a browser: follows the authorization request's redirects on this server with their
 * cookies, reads the consent page, fills its form and presses a button, and stops as soon as the
 * server sends them anywhere else (the client's redirect URI, never contacted).
 */
export class Person {
  readonly jar = new CookieJar();
  private readonly base: URL;
  /** The site's public origin when it differs from where it is reached (https behind a TLS proxy). */
  private readonly publicOrigin: string;

  constructor(base: string, publicOrigin?: string) {
    this.base = new URL(base);
    this.publicOrigin = publicOrigin ?? this.base.origin;
  }

  /** An address on this site, reached through the socket whatever origin it is written with. */
  private home(url: URL): URL | null {
    if (url.origin === this.base.origin) return url;
    if (url.origin !== this.publicOrigin) return null;
    return new URL(`${url.pathname}${url.search}`, this.base);
  }

  async get(url: URL): Promise<Response> {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: this.jar.header(url), accept: "text/html" },
    });
    this.jar.take(response);
    return response;
  }

  async post(url: URL, body: URLSearchParams): Promise<Response> {
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: this.jar.header(url),
        "content-type": "application/x-www-form-urlencoded",
        origin: this.publicOrigin,
        "sec-fetch-site": "same-origin",
        accept: "text/html",
      },
      body,
    });
    this.jar.take(response);
    return response;
  }

  /** Follows redirects on this server from `start`; answers the first page or the first address elsewhere. */
  async follow(
    start: URL,
    first?: Response,
  ): Promise<{ response: Response; body: string; url: URL; away: URL | null }> {
    let url = start;
    let response = first ?? (await this.get(url));
    for (let hop = 0; hop < 10; hop++) {
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) break;
      const next = new URL(location, url);
      const here = this.home(next);
      if (!here) return { response, body: "", url, away: next };
      url = here;
      response = await this.get(url);
    }
    return { response, body: await response.text(), url, away: null };
  }

  /** The whole sign-in, from the authorization URL a client sent the person to. */
  async signIn(authorizationUrl: URL, choice: SignInChoice = {}): Promise<SignInOutcome> {
    const page = await this.follow(authorizationUrl);
    if (page.away) return { redirect: page.away, last: page.response, lastBody: "", consentHtml: null };
    if (page.response.status !== 200 || !page.url.pathname.startsWith("/oauth/consent/"))
      return { redirect: null, last: page.response, lastBody: page.body, consentHtml: null };
    const form = parseForm(page.body);
    const body = new URLSearchParams();
    const fields = new Map(form.fields);
    if (choice.who) fields.set("who", choice.who);
    for (const [name, value] of Object.entries(choice.fields ?? {})) fields.set(name, value);
    if (choice.token !== undefined) fields.set("agent_token", choice.token);
    if (choice.dropCsrf) fields.delete("csrf");
    for (const [name, value] of fields) body.append(name, value);
    const button = form.buttons.find((candidate) => candidate.value === (choice.decision ?? "allow"));
    if (!button) throw new Error(`no ${choice.decision ?? "allow"} button`);
    body.append(button.name, button.value);
    const posted = await this.post(new URL(form.action, page.url), body);
    const after = await this.follow(page.url, posted);
    return { redirect: after.away, last: after.response, lastBody: after.body, consentHtml: page.body };
  }
}

export const NEW_AGENT = { agent_name: "Docs Scout", agent_type: "research assistant", operator_type: "company" };
