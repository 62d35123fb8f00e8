import type { Configuration } from "oidc-provider";
import { html, page, pageHeaders } from "./page-shell.ts";

/** What a person can do about each refusal, in plain words. */
const ADVICE: Record<string, string> = {
  invalid_redirect_uri:
    "The app asked to send you back to an address it has not registered, so this page stops here instead of sending you there. Tell the app's makers; nothing was shared.",
  invalid_client:
    "The app asking for access is not known here, or its client metadata document could not be read as the specification requires. Try again from the app; if it persists, tell its makers.",
  invalid_request: "The app's request was incomplete or malformed. Start again from the app.",
  invalid_target: "The app asked for access to something this service does not offer. Start again from the app.",
  csrf: "This form did not come from the page this site showed you, or it expired. Start again from the app; nothing was granted.",
  session_not_found:
    "This sign-in has expired or was opened in another browser. Start again from the app, in this browser.",
};

/**
 * The page an authorization request ends on when it cannot go back to the client: its redirect URI is
 * not registered (or the client is unknown), so redirecting anywhere would be an open redirect (OAuth
 * 2.1 §7.12.2). An error page, never a redirect; JSON clients get the library's JSON instead.
 */
export const renderAuthorizationError: NonNullable<Configuration["renderError"]> = (ctx, out) => {
  const code = typeof out.error === "string" ? out.error : "server_error";
  const description = typeof out.error_description === "string" ? out.error_description : "";
  for (const [name, value] of Object.entries(pageHeaders())) ctx.set(name, value);
  ctx.body = errorPage(code, description);
};

/** The page itself: what stopped, its OAuth error code, and what a person can do. */
export function errorPage(code: string, description: string): string {
  return page(
    "Sign-in stopped",
    `<h1>Sign-in stopped</h1>
<div class="alert error" role="alert">
<p><strong>${html(description || "The request could not be completed.")}</strong></p>
<p class="note">Error code: <code>${html(code)}</code></p>
</div>
<p>${html(ADVICE[code] ?? "Start again from the app that sent you here.")}</p>
<p class="note">You can close this page. <a href="/docs/agents/sign-in-from-mcp-clients">How signing in from an MCP client works</a>.</p>`,
  );
}
