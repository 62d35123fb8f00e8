import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "form-"));
  server = await startServer({ DATABASE_URL: `file:${join(dir, "service.db")}` });
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe("the people's waiting-list page (a plain HTML form)", () => {
  it("shows the form with the current privacy policy and legend terms and their versions", async () => {
    const response = await fetch(`${server.url}/waitlist`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<form class="stack" method="post" action="/waitlist"');
    expect(html).toContain('name="consent_version" value="privacy-2026-11-01"');
    expect(html).toContain("<code>privacy-2026-11-01</code>");
    expect(html).toContain("<code>legend-2026-11-01</code>");
    expect(response.headers.get("content-security-policy")).toContain("form-action 'self'");
  });

  it("explains every problem next to its field in plain words and keeps what was typed", async () => {
    const response = await post({ name: "Ada", email: "not-an-address", consent_version: "privacy-2026-11-01" });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain("Please correct the 2 answers below.");
    expect(html).toContain("Enter your e-mail address in full, such as name@example.com.");
    expect(html).toContain(
      "Tick the box to agree to the privacy policy: we can only add you to the list if you agree.",
    );
    expect(html).not.toContain("must be");
    expect(html).toContain('value="not-an-address"');
  });

  it("asks a person whose page outlived a privacy-policy change to read it and agree again", async () => {
    const response = await post({ email: "ada@example.com", consent: "yes", consent_version: "privacy-2020-01-01" });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain("The privacy policy changed while this page was open. Please read it and agree again.");
    expect(html).toContain('name="consent_version" value="privacy-2026-11-01"');
  });

  it("thanks the person, and makes a legend of one who accepts the legend terms", async () => {
    const html = await (
      await post({
        email: "grace@example.com",
        consent: "yes",
        consent_version: "privacy-2026-11-01",
        legend_terms_version: "legend-2026-11-01",
      })
    ).text();
    expect(html).toContain("Thank you: you are on the list.");
    expect(html).toContain("you are a legend");
  });

  it("refuses a post from another site", async () => {
    const response = await post(
      { email: "x@example.com", consent: "yes", consent_version: "privacy-2026-11-01" },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect((await response.json()) as object).toMatchObject({ code: "cross-site-form" });
  });
});
