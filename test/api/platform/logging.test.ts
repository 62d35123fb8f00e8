import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../api/platform/log.ts";
import { createApp } from "../../../api/wiring/app.ts";
import { bearer, PRIVACY_VERSION, validEntry } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { builtSite } from "../../helpers/site.ts";

const lines: string[] = [];
let t: TestApp;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await createTestApp();
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(...chunk.toString().trim().split("\n"));
      done();
    },
  });
  app = createApp({ config: t.config, log: createLogger("info", sink), site: await builtSite(), services: t.services });
});
afterAll(() => t.close());

const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  Promise.resolve(
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );

describe("logs", () => {
  it("write one JSON line per API request with its id, and never an e-mail address or a token", async () => {
    const registered = (await (
      await send("/api/v1/agents/register", {
        agent_name: "Logged",
        agent_type: "bot",
        operator_type: "company",
        principal_contact: "owner@example.com",
      })
    ).json()) as { token: string };
    await send("/api/v1/agents/waitlist", validEntry, bearer(registered.token));
    await send("/api/v1/waitlist", {
      email: "private.person@example.com",
      consent: true,
      consent_version: PRIVACY_VERSION,
    });
    await send("/api/v1/waitlist", { email: "bad" });
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.msg === "request");
    expect(requests.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ["POST", "/api/v1/agents/register", 201],
      ["POST", "/api/v1/agents/waitlist", 201],
      ["POST", "/api/v1/waitlist", 202],
      ["POST", "/api/v1/waitlist", 422],
    ]);
    for (const entry of requests) expect(entry.req_id).toMatch(/^[0-9a-f-]{36}$/);
    const all = lines.join("\n");
    expect(all).not.toContain("@example.com");
    expect(all).not.toContain(registered.token);
    expect(all).not.toMatch(/agt_[0-9A-Za-z]{10}/);
  });

  it("keep capability secrets in paths out", async () => {
    await Promise.resolve(app.request("/api/v1/downloads/secret-signed-token-value"));
    expect(lines.join("\n")).not.toContain("secret-signed-token-value");
  });
});
