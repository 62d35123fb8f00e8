import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../api/platform/log.ts";
import { createApp } from "../../../api/wiring/app.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { builtSite } from "../../helpers/site.ts";

// How a JSON body reaches a handler on a real socket: whole with its headers (taken from Node's
// buffer at once), in several chunks, or trickling in after the handler has started waiting.
let t: TestApp;
let server: Server;
let port: number;
let addresses = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { BODY_LIMIT_BYTES: "2048" } });
  server = createServer(
    toNodeHandler(
      createApp({ config: t.config, log: createLogger("silent"), site: await builtSite(), services: t.services }),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const registration = (name: string) =>
  JSON.stringify({ agent_name: name, agent_type: "assistant", operator_type: "company" });

/** Sends `head` and then each part after `gapMs`; answers the status and the body of the response. */
function rawRequest(
  head: string,
  parts: (string | Buffer)[],
  gapMs = 0,
): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => {
      const [headers = "", body = ""] = received.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body });
    });
    socket.on("connect", async () => {
      if (gapMs === 0) {
        socket.write(Buffer.concat([Buffer.from(head), ...parts.map((part) => Buffer.from(part))]));
        return;
      }
      socket.write(head);
      for (const part of parts) {
        await new Promise((wait) => setTimeout(wait, gapMs));
        socket.write(part);
      }
    });
  });
}

/** A request head; `connection` "keep-alive" leaves closing the socket to the server. */
const headFor = (framing: string, connection: "close" | "keep-alive" = "close") =>
  `POST /api/v1/agents/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Forwarded-For: 192.0.2.${++addresses}\r\nConnection: ${connection}\r\n${framing}\r\n`;
const chunked = (parts: string[]) => [
  ...parts.map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`),
  "0\r\n\r\n",
];

describe("reading a JSON body", () => {
  it("reads a body that arrived with its headers", async () => {
    const body = registration("Whole");
    const answer = await rawRequest(headFor(`Content-Length: ${Buffer.byteLength(body)}\r\n`), [body]);
    expect(answer.status).toBe(201);
  });

  it("joins a chunked body's chunks, whether they arrived together or one by one", async () => {
    const body = registration("Chunks");
    const parts = [body.slice(0, 10), body.slice(10, 30), body.slice(30)];
    const together = await rawRequest(headFor("Transfer-Encoding: chunked\r\n"), chunked(parts));
    const trickled = await rawRequest(headFor("Transfer-Encoding: chunked\r\n"), chunked(parts), 30);
    expect(together.status).toBe(201);
    expect(trickled.status).toBe(201);
    expect(JSON.parse(trickled.body)).toMatchObject({ token_type: "Bearer" });
  });

  it("answers 413 to a chunked body over the limit, whether it arrived at once or in pieces", async () => {
    const parts = [
      `{"agent_name":"${"x".repeat(1500)}`,
      `${"y".repeat(1500)}","agent_type":"a","operator_type":"company"}`,
    ];
    // Asked to keep the connection open: the answer resolves only because the server closes it.
    const atOnce = await rawRequest(headFor("Transfer-Encoding: chunked\r\n", "keep-alive"), chunked(parts));
    const inPieces = await rawRequest(headFor("Transfer-Encoding: chunked\r\n"), chunked(parts), 30);
    expect(atOnce.status).toBe(413);
    expect(inPieces.status).toBe(413);
    expect(JSON.parse(atOnce.body)).toMatchObject({ status: 413, type: expect.stringContaining("payload-too-large") });
    // The rest of an unbounded body is not read: the connection ends with the answer.
    expect(atOnce.headers).toMatch(/^connection: close$/im);
  });

  it("answers 400 to bytes that are not UTF-8, and reads the next body as usual", async () => {
    const broken = Buffer.from([0x7b, 0x22, 0x61, 0xe2, 0x82]);
    const refused = await rawRequest(headFor(`Content-Length: ${broken.byteLength}\r\n`), [broken]);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ detail: expect.stringContaining("not valid UTF-8") });
    const body = registration("Après");
    expect((await rawRequest(headFor(`Content-Length: ${Buffer.byteLength(body)}\r\n`), [body])).status).toBe(201);
  });

  it("answers 400 to a body cut short of valid JSON", async () => {
    const body = registration("Cut").slice(0, 20);
    const answer = await rawRequest(headFor(`Content-Length: ${Buffer.byteLength(body)}\r\n`), [body]);
    expect(answer.status).toBe(400);
  });
});
