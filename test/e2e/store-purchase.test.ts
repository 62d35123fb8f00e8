import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-server.ts";
import { type CommerceStack, startCommerceStack } from "../helpers/commerce-stack.ts";
import type { RunningServer } from "../helpers/server-process.ts";
import { mimePart, type SmtpSink } from "../helpers/smtp.ts";

let stack: CommerceStack;
let server: RunningServer;
let fake: FakeStripe;
let smtp: SmtpSink;

beforeAll(async () => {
  stack = await startCommerceStack("e2e_store", { MAIL_FROM: "shop@agentready.example" });
  ({ server, fake, smtp } = stack);
});
afterAll(async () => {
  await stack?.stop();
});

const buy = (productId: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/store/buy/${productId}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, ...headers },
    body: "",
  });

async function waitFor<T>(what: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("buying from the store page through its HTML forms over plain HTTP (the browser test does it in Chromium)", () => {
  it("goes from the buy button through the hosted page to the return page, the download and the e-mail", async () => {
    const storePage = await (await fetch(`${server.url}/store`)).text();
    expect(storePage).toContain('<form method="post" action="/store/buy/agent-readiness-checklist"');

    const started = await buy("agent-readiness-checklist");
    expect(started.status).toBe(303);
    const hosted = started.headers.get("location") ?? "";
    expect(hosted).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
    expect(await (await fetch(hosted)).text()).toContain(">Pay</button>");

    const paid = await fetch(hosted, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "browser@example.com", outcome: "pay" }).toString(),
    });
    expect(paid.status).toBe(303);
    const back = paid.headers.get("location") ?? "";
    expect(back).toMatch(new RegExp(`^${server.url}/store/return\\?session_id=cs_test_`));

    const returned = await fetch(back);
    expect(returned.status).toBe(200);
    const html = await returned.text();
    expect(html).toContain("Thank you: your purchase is ready");
    const sessionId = new URL(back).searchParams.get("session_id") ?? "";
    expect(html).toContain(`href="/api/v1/store/sessions/${sessionId}/download"`);
    expect(html).not.toContain('http-equiv="refresh"');

    const file = await readFile(join(process.cwd(), "content/files/agent-readiness-checklist.md"));
    const downloaded = await fetch(`${server.url}/api/v1/store/sessions/${sessionId}/download`);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(file)).toBe(true);

    const mail = await waitFor(() => smtp.received.find((message) => message.to.includes("browser@example.com")));
    const link =
      /(https?:\/\/\S+\/api\/v1\/downloads\/v1\.[A-Za-z0-9._-]+)/.exec(mimePart(mail.raw, "text/plain"))?.[1] ?? "";
    expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(file)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(smtp.received.filter((message) => message.to.includes("browser@example.com"))).toHaveLength(1);
  });

  it("shows a pending purchase with a self-refreshing page, and an unknown one as 404", async () => {
    const started = await buy("markdown-for-agents-guide");
    const sessionId = new URL(started.headers.get("location") ?? "").pathname.split("/").pop() ?? "";
    const pending = await fetch(`${server.url}/store/return?session_id=${sessionId}`);
    const html = await pending.text();
    expect(html).toContain("Waiting for your payment to be confirmed");
    expect(html).toContain('http-equiv="refresh" content="5"');
    expect((await fetch(`${server.url}/store/return?session_id=cs_test_unknown`)).status).toBe(404);
    expect((await fetch(`${server.url}/store/return`)).status).toBe(404);
  });

  it("explains a product that cannot be bought, and refuses a post from another site", async () => {
    const refused = await buy("api-hygiene-workbook");
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("This product cannot be bought right now");
    expect((await buy("agent-readiness-checklist", { origin: "https://evil.example" })).status).toBe(403);
  });
});
