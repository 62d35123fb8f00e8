import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAstroHandler } from "../../../api/site/astro-handler.ts";
import { createApp } from "../../../api/wiring/app.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { captureLog } from "../../helpers/log-lines.ts";
import { testBuild } from "../../helpers/test-build.ts";

const captured = captureLog("info");
let t: TestApp;
let server: Server;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    log: captured.log,
    allowUnhandledErrors: true,
    // Payments configured so the webhook route reads its body (no call ever reaches this address).
    env: {
      STRIPE_SECRET_KEY: "sk_test_abort",
      STRIPE_WEBHOOK_SECRET: "whsec_abort",
      STRIPE_API_BASE: "http://127.0.0.1:9",
    },
  });
  const pages = await loadAstroHandler(testBuild().distDir);
  const app = createApp({ config: t.config, log: captured.log, site: null, services: t.services, pages });
  server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** Sends the head of a POST promising 10,000 bytes and the first few of them, then closes the connection. */
function hangUpMidBody(path: string, type: string, partial: string, requestId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: ${requestId}\r\nContent-Type: ${type}\r\nContent-Length: 10000\r\n\r\n${partial}`,
        () => setTimeout(() => socket.destroy(), 50),
      );
    });
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}

async function linesOf(requestId: string): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = captured.lines().filter((line) => line.req_id === requestId);
    if (lines.some((line) => line.msg === "request") || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("a client that hangs up in the middle of its request body", () => {
  it.each([
    ["an API operation", "/api/v1/waitlist", "application/json", '{"name": "Half'],
    ["the payment webhook", "/api/v1/webhooks/stripe", "application/json", '{"id": "evt_'],
    ["the MCP endpoint", "/mcp", "application/json", '{"jsonrpc": "2.0", '],
    ["a form page", "/waitlist", "application/x-www-form-urlencoded", "name=Half&email="],
  ])(
    "is logged as a client abort (499 at info), never as a 500 or an error: %s",
    async (_name, path, type, partial) => {
      const requestId = `hang-up-${path.replaceAll("/", "-")}`;
      await hangUpMidBody(path, type, partial, requestId);
      const lines = await linesOf(requestId);
      expect(lines.find((line) => line.msg === "request")).toMatchObject({ level: "info", path, status: 499 });
      expect(lines.find((line) => line.msg === "client closed the request mid-body")).toMatchObject({ level: "info" });
      expect(lines.filter((line) => line.level === "error" || line.level === "fatal")).toEqual([]);
      expect(lines.filter((line) => Number(line.status) >= 500)).toEqual([]);
    },
  );

  it("leaves the server answering the next request as usual", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/config`);
    expect(response.status).toBe(200);
  });
});
