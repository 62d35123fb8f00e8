import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { type RunningCommand, startNpmScript } from "../helpers/npm-process.ts";

let dir: string;
let demo: RunningCommand;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "demo-"));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DIST_DIR: "test-results/demo-dist",
    DATABASE_URL: `file:${join(dir, "service.db")}`,
  };
  for (const name of ["NODE_ENV", "SITE_URL", "DOCS_URL", "STRIPE_SECRET_KEY", "STRIPE_API_BASE", "SMTP_URL"])
    delete env[name];
  demo = await startNpmScript("demo", env, `${url}/health`);
}, 200_000);
afterAll(async () => {
  await demo?.interrupt();
  await rm(dir, { recursive: true, force: true });
});

// A person's browser, without one: each form is posted as the page has it, each redirect followed by hand.
const postForm = (target: string, fields: Record<string, string>) =>
  fetch(target, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(target).origin },
    body: new URLSearchParams(fields).toString(),
  });

describe("npm run demo", { timeout: 60_000 }, () => {
  let fakeUrl: string;

  it("says where the fake provider is, and the server's banner shows payments going to it", () => {
    fakeUrl = /payments go to a fake provider at (http:\/\/127\.0\.0\.1:\d+)/.exec(demo.stdout())?.[1] ?? "";
    expect(fakeUrl, demo.stdout()).not.toBe("");
    expect(demo.stdout()).toContain(`Payments: a stand-in for Stripe at ${fakeUrl} (STRIPE_API_BASE)`);
    expect(demo.stdout()).not.toMatch(/payments: .*answer 503/);
  });

  it("completes a purchase through the fake's hosted checkout and hands over the file", async () => {
    const store = await (await fetch(`${url}/store`)).text();
    const action = /<form method="post" action="(\/store\/buy\/agent-readiness-checklist)"/.exec(store)?.[1];
    expect(action).toBeDefined();

    const toCheckout = await postForm(`${url}${action}`, {});
    expect(toCheckout.status).toBe(303);
    const hosted = toCheckout.headers.get("location") ?? "";
    expect(hosted.startsWith(`${fakeUrl}/pay/cs_test_`)).toBe(true);
    const checkoutPage = await (await fetch(hosted)).text();
    expect(checkoutPage).toContain("Agent-readiness checklist");

    const paid = await postForm(hosted, { email: "newcomer@example.com", outcome: "pay" });
    expect(paid.status).toBe(303);
    const back = paid.headers.get("location") ?? "";
    expect(back.startsWith(`${url}/store/return?session_id=cs_test_`)).toBe(true);

    const thanks = await (await fetch(back)).text();
    expect(thanks).toContain("Thank you: your purchase is ready");
    const download = /href="(\/api\/v1\/store\/sessions\/cs_test_[^"]+\/download)"/.exec(thanks)?.[1] ?? "";
    const file = await fetch(`${url}${download}`);
    expect(file.status).toBe(200);
    const expected = await readFile(join(process.cwd(), "content/files/agent-readiness-checklist.md"));
    expect(Buffer.from(await file.arrayBuffer()).equals(expected)).toBe(true);
  });

  it("takes the README's first requests: an agent registers and joins the agent waiting list", async () => {
    const registered = await fetch(`${url}/api/v1/agents/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agent_name: "Docs Scout", agent_type: "research assistant", operator_type: "company" }),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const { privacy_version } = (await (await fetch(`${url}/api/v1/config`)).json()) as { privacy_version: string };
    const joined = await fetch(`${url}/api/v1/agents/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        agent_name: "Docs Scout",
        agent_type: "research assistant",
        operator_type: "company",
        use_cases: ["summarise API documentation for developers"],
        capabilities: ["read"],
        tools_used: ["http-fetch"],
        consent_version: privacy_version,
      }),
    });
    expect(joined.status).toBe(201);
    expect(await joined.json()).toMatchObject({ status: "received" });
  });

  it("buys over HTTP as the README says: checkout, pay the fake's page with a POST, then the session's download_url", async () => {
    const checkout = await fetch(`${url}/api/v1/store/agent-readiness-checklist/checkout`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(checkout.status).toBe(201);
    const { id, url: payUrl } = (await checkout.json()) as { id: string; url: string };
    // The README's command: curl -s -o /dev/null -d 'email=…&outcome=pay' "$PAY_URL" (a form post, no Origin).
    const paid = await fetch(payUrl, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=you%40example.com&outcome=pay",
    });
    expect(paid.status).toBe(303);
    const session = (await (await fetch(`${url}/api/v1/store/sessions/${id}`)).json()) as { download_url?: string };
    expect(session.download_url).toMatch(/^\/api\/v1\//);
    const file = await fetch(`${url}${session.download_url}`);
    expect(file.status).toBe(200);
  });

  it("lets the form at /checks check the demo itself, with no variable to set", async () => {
    expect(demo.stdout()).toContain(
      `Checks may reach this server itself (CHECKS_ALLOWED_TARGETS=${new URL(url).host})`,
    );
    const checked = await postForm(`${url}/checks`, { domain: url, profile: "" });
    expect(checked.status).toBe(303);
    expect(checked.headers.get("location")).toMatch(/^\/checks\/[0-9a-f-]{36}$/);
  }, 60_000);

  it("stops the server and the fake together on Ctrl-C", async () => {
    await demo.interrupt();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    await expect(fetch(`${fakeUrl}/pay/cs_test_gone`)).rejects.toThrow();
  });
});
