import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ResolvedAddress } from "../../../api/checks/engine/fetch/address-guard.ts";
import { type ClientDocumentSite, LOOPBACK_CA_FILE, startClientDocumentSite } from "../../helpers/client-documents.ts";
import { captureLog } from "../../helpers/log-lines.ts";
import { CALLBACK, type OAuthBed, pkce, RawClient, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT, Person } from "../../helpers/oauth-person.ts";

let bed: OAuthBed;
let site: ClientDocumentSite;
let lookups: string[];
const logged = captureLog("warn");
const refusals = () =>
  logged
    .lines()
    .filter((line) => line.msg === "client ID metadata document refused")
    .map((line) => String(line.err ?? line.status));

beforeAll(async () => {
  site = await startClientDocumentSite();
  lookups = [];
  bed = await startOAuthBed({
    env: { OAUTH_CIMD_ALLOWED_TARGETS: site.hostPort, OAUTH_CIMD_CA_FILE: LOOPBACK_CA_FILE },
    log: logged.log,
    // A public-looking name that resolves to a private address, as DNS rebinding would make it.
    clientDocumentLookup: async (hostname): Promise<ResolvedAddress[]> => {
      lookups.push(hostname);
      return hostname === "clients.example" ? [{ address: "10.0.0.7", family: 4 }] : [];
    },
  });
});
afterAll(async () => {
  await bed?.close();
  await site?.close();
});

const CLIENT = {
  client_name: "Metadata document client",
  redirect_uris: [CALLBACK],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
};

/** Starts an authorization request with a client ID metadata document URL as the client_id. */
async function authorize(clientId: string): Promise<{ status: number; location: string | null; body: string }> {
  const client = new RawClient(bed.base);
  client.clientId = clientId;
  const response = await fetch(client.authorizationUrl(pkce().challenge), {
    redirect: "manual",
    headers: { accept: "text/html" },
  });
  return { status: response.status, location: response.headers.get("location"), body: await response.text() };
}

function expectRefused(answer: { status: number; location: string | null; body: string }) {
  expect(answer.status).toBe(400);
  expect(answer.location).toBeNull();
  expect(answer.body).toContain("invalid_client");
}

describe("a client ID metadata document", () => {
  it("is fetched over https, cached, and used as the client's registration", async () => {
    const url = site.publish("/good.json", CLIENT, { "cache-control": "max-age=300" });
    const first = await authorize(url);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/oauth\/consent\//);
    await authorize(url);
    expect(site.fetches("/good.json")).toBe(1);
  });

  it("is refused when it redirects, and the redirect is not followed", async () => {
    site.publish("/target.json", CLIENT);
    const url = site.answer("/moved.json", (_request, response) =>
      response.writeHead(302, { location: site.url("/target.json") }).end(),
    );
    expectRefused(await authorize(url));
    expect(site.fetches("/target.json")).toBe(0);
  });

  it("is refused over 5 KB, and accepted just under it", async () => {
    const padded = (bytes: number) => ({ ...CLIENT, client_uri: `https://example.com/${"a".repeat(bytes)}` });
    const large = site.publish("/large.json", padded(5_200));
    expectRefused(await authorize(large));
    const fits = site.publish("/fits.json", padded(4_700));
    expect((await authorize(fits)).status).toBe(303);
  });

  it("is refused when it names another client_id", async () => {
    const url = site.publish("/liar.json", { ...CLIENT, client_id: "https://other.example/client.json" });
    expectRefused(await authorize(url));
  });

  it("is never fetched from a name that resolves to a private address, nor from a loopback host not allowed", async () => {
    logged.clear();
    expectRefused(await authorize("https://clients.example/client.json"));
    expect(lookups).toContain("clients.example");
    expect(refusals()).toContain("clients.example resolves to 10.0.0.7 is a private address (RFC 1918)");
    const [, port] = site.hostPort.split(":");
    expectRefused(await authorize(`https://127.0.0.2:${port}/good.json`));
    expect(refusals()).toContain(`port ${port} is not checked: only 80 and 443 are`);
    expectRefused(await authorize("https://127.0.0.1/good.json"));
    expect(refusals()).toContain("127.0.0.1 is a loopback address");
  });

  it("is only ever an https URL: an http client_id is simply an unknown client", async () => {
    const [, port] = site.hostPort.split(":");
    expectRefused(await authorize(`http://127.0.0.1:${port}/good.json`));
  });

  it("that failed is fetched again next time: errors are never cached", async () => {
    let healthy = false;
    const url = site.answer("/flaky.json", (_request, response) => {
      if (!healthy) response.writeHead(500).end();
      else
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ ...CLIENT, client_id: site.url("/flaky.json") }));
    });
    expectRefused(await authorize(url));
    const afterFailure = site.fetches("/flaky.json");
    expect(afterFailure).toBeGreaterThan(0);
    healthy = true;
    expect((await authorize(url)).status).toBe(303);
    expect(site.fetches("/flaky.json")).toBeGreaterThan(afterFailure);
  });

  it("whose redirect URIs change is asked about again, though consent for it was remembered", async () => {
    const person = new Person(bed.base);
    const url = site.publish("/changing.json", CLIENT);
    const client = new RawClient(bed.base);
    client.clientId = url;
    const first = await person.signIn(client.authorizationUrl(pkce().challenge), { who: "new", fields: NEW_AGENT });
    expect(first.redirect?.searchParams.get("code")).toBeTruthy();
    // Who vouches for the client: the host its metadata document is published on, its name not marked self-asserted.
    expect(first.consentHtml).toContain(`its client metadata document at <strong>${site.hostPort}</strong>`);
    expect(first.consentHtml).not.toContain("self-asserted");
    const again = await person.signIn(client.authorizationUrl(pkce().challenge));
    expect(again.consentHtml).toBeNull();
    expect(again.redirect?.searchParams.get("code")).toBeTruthy();
    // The client publishes another return address; the library reads it again once its cached copy
    // expires (30 s at the least): the clock moves on rather than the test waiting.
    site.publish("/changing.json", { ...CLIENT, redirect_uris: [CALLBACK, "https://app.example/callback"] });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31_000 });
    try {
      const changed = await person.signIn(client.authorizationUrl(pkce().challenge), { who: "session" });
      expect(changed.consentHtml).toContain("app.example");
      expect(changed.redirect?.searchParams.get("code")).toBeTruthy();
      const remembered = await person.signIn(client.authorizationUrl(pkce().challenge));
      expect(remembered.consentHtml).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
