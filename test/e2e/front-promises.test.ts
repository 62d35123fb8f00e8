import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_LIMIT_BYTES } from "../../api/payments/webhook-route.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { apiBodyLimits, startStaticFront } from "../../scripts/lib/static-front.ts";
import { INSTANCE_RETRY_SECONDS } from "../../src/lib/nginx-problems.ts";
import { redactPath } from "../../src/lib/redacted-paths.ts";
import { problemHeaders } from "../../src/lib/static-headers.ts";
import { expectProblem } from "../helpers/agents.ts";
import { frontLog } from "../helpers/front-log.ts";
import { testBuild } from "../helpers/test-build.ts";

// The nginx front of the scale-out deployment where it answers itself: with every instance down (its
// one upstream is a port nothing listens on) and for bodies over the API's limit. What it answers and
// what it logs must keep the API's promises: problem+json, and no secret in a log.
let front: Awaited<ReturnType<typeof startStaticFront>>;
let dir: string;
const limits = apiBodyLimits({});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "front-"));
  // nginx's workers (nobody, under root) keep large request bodies under its work directory.
  await chmod(dir, 0o755);
  front = await startStaticFront({
    distDir: testBuild().distDir,
    instances: [`127.0.0.1:${await freePort()}`],
    port: await freePort(),
    workDir: join(dir, "nginx"),
    workers: 1,
    siteUrl: testBuild().siteUrl,
    bodyLimits: limits,
  });
});
afterAll(async () => {
  await front?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A request with its path sent exactly as written (fetch would resolve `..` first). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) {
  const { hostname, port } = new URL(front.url);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = request({ host: hostname, port, method, path, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const head = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          if (typeof value === "string") head.set(name, value);
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0, headers: head }));
      });
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const json = (bytes: number) => Buffer.from(`"${"x".repeat(bytes - 2)}"`);

describe("the nginx front, where it answers itself", () => {
  it("answers 503 problem+json with Retry-After when no instance answers: the API, /health, /status.json, a Markdown page", async () => {
    for (const [path, headers] of [
      ["/api/v1/agents/me", {}],
      ["/health", {}],
      ["/status.json", {}],
      ["/docs/quickstart", { accept: "text/markdown" }],
    ] as const) {
      const response = await send("GET", path, headers);
      const body = await expectProblem(response, 503, "service-unavailable");
      expect(body).toMatchObject({ type: `${testBuild().siteUrl}/problems/service-unavailable`, instance: path });
      expect(response.headers.get("retry-after")).toBe(String(INSTANCE_RETRY_SECONDS));
      for (const [name, value] of problemHeaders()) expect(response.headers.get(name), name).toBe(value);
    }
  });

  it("answers a body over the API's limit with the API's 413 problem, and passes one at the limit on", async () => {
    const headers = { "content-type": "application/json" };
    const over = await send("POST", "/api/v1/waitlist", headers, json(limits.bodyLimitBytes + 1));
    const body = await expectProblem(over, 413, "payload-too-large");
    expect(body.detail).toBe(`The body is over the limit of ${limits.bodyLimitBytes} bytes.`);
    expect((await send("POST", "/api/v1/waitlist", headers, json(limits.bodyLimitBytes))).status).toBe(503);
    // The payment provider's webhook has a limit of its own.
    const webhook = "/api/v1/webhooks/stripe";
    expect((await send("POST", webhook, headers, json(limits.bodyLimitBytes + 1))).status).toBe(503);
    const tooBig = await send("POST", webhook, headers, json(WEBHOOK_LIMIT_BYTES + 1));
    expect((await expectProblem(tooBig, 413, "payload-too-large")).detail).toContain(String(WEBHOOK_LIMIT_BYTES));
  });

  it("logs capability URLs as the instances do, secret redacted, in logs only their owner may read", async () => {
    const secret = (name: string) => `${name}SeCrEt${randomUUID().slice(0, 8)}`;
    const report = randomUUID();
    const paths = [
      `/api/v1/downloads/${secret("dl")}?token=${secret("q")}`,
      `/api/v1/store/sessions/cs_test_${secret("cs")}/download`,
      `/api/v1/checks/${report}/redeem`,
      `/checks/${report}`,
      `/api/v1/monitors/${secret("mon")}`,
      `/api/v1/agents/monitors/${secret("mon")}/runs`,
      `/monitors/unsubscribe/${secret("v1.")}`,
      "/api/v1/monitors/confirm",
    ];
    for (const path of paths) await send("GET", path, { referer: `${front.url}/checks/${report}` });
    // Spelled around the rules: nginx resolves the path before it is matched.
    const dotted = `/api/v1/store/../downloads/${secret("dl")}`;
    await send("GET", dotted);
    const logged = (await frontLog(front.workDir)).map((line) => line.path);
    for (const path of paths) expect(logged).toContain(redactPath(path));
    expect(logged).toContain("/api/v1/downloads/[redacted]");
    for (const file of ["access.log", "error.log"]) {
      const text = await readFile(join(front.workDir, file), "utf8");
      expect(text, file).not.toMatch(/SeCrEt/);
      expect(text, file).not.toContain(report);
      expect((await stat(join(front.workDir, file))).mode & 0o777, file).toBe(0o600);
    }
  });
});
