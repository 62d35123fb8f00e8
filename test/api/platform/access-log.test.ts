import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { logRequestLine } from "../../../api/platform/access-log.ts";
import { requestIdFrom } from "../../../api/platform/http/request-id.ts";
import { createLogger } from "../../../api/platform/log.ts";

function capture() {
  const written: string[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      written.push(chunk.toString());
      done();
    },
  });
  return { written, log: createLogger("debug", sink) };
}

const REQUEST_ID = requestIdFrom("req-12345678");
const strip = (line: string) => line.replace(/"time":\d+,/, "");

describe("the request line", () => {
  it("is exactly the line pino writes for the same fields, also for paths that need escaping", () => {
    const paths = [
      "/api/v1/agents/me",
      '/api/v1/odd"path\\with\u0001control\u2028and ünïcode',
      "/api/v1/downloads/secret-token?x=1",
    ];
    for (const path of paths) {
      const hand = capture();
      const byPino = capture();
      logRequestLine(hand.log, "info", { requestId: REQUEST_ID, method: "GET", path, status: 200, ms: 1.2345 });
      const redacted = path.replace(/^(\/api\/v1\/downloads\/)[^/?]+/, "$1[redacted]").replace(/\?.*$/, "");
      byPino.log.info({ req_id: "req-12345678", method: "GET", path: redacted, status: 200, ms: 1.2 }, "request");
      const [handLine, pinoLine] = [hand.written.join(""), byPino.written.join("")];
      expect(handLine.endsWith("\n")).toBe(true);
      expect(strip(handLine)).toBe(strip(pinoLine));
    }
  });

  it("gives every request id and duration exactly as pino writes them", () => {
    const durations = [0, 0.04, 0.05, 0.95, 1, 9.96, 12.34, 99.95, 123.45, 1234.56, 86_400_000.04, 3e9, 1e22, -1.23];
    // Fractions of every size, the same on every run.
    for (let index = 1; index <= 2_000; index++) durations.push(((index * 7_919) % 10_007) / 10 ** (index % 7));
    const ids = [REQUEST_ID, requestIdFrom("Agent.run_42-x"), requestIdFrom(undefined)];
    const hand = capture();
    const byPino = capture();
    for (const [index, ms] of durations.entries()) {
      const requestId = ids[index % ids.length] ?? REQUEST_ID;
      logRequestLine(hand.log, "info", { requestId, method: "GET", path: "/", status: 200, ms });
      byPino.log.info(
        { req_id: requestId, method: "GET", path: "/", status: 200, ms: Math.round(ms * 10) / 10 },
        "request",
      );
    }
    expect(hand.written.map(strip)).toEqual(byPino.written.map(strip));
  });

  it("keeps capability secrets out and respects the level", () => {
    const { written, log } = capture();
    logRequestLine(log, "info", {
      requestId: REQUEST_ID,
      method: "GET",
      path: "/api/v1/downloads/very-secret-value",
      status: 410,
      ms: 0,
    });
    expect(written.join("")).not.toContain("very-secret-value");
    const quiet = createLogger(
      "warn",
      new Writable({
        write: (_chunk, _encoding, done) => {
          written.push("unexpected");
          done();
        },
      }),
    );
    logRequestLine(quiet, "info", { requestId: REQUEST_ID, method: "GET", path: "/", status: 200, ms: 0 });
    expect(written).not.toContain("unexpected");
  });
});

describe("standard output written once per turn", () => {
  it("writes the lines of one turn in one write, in order, and the last ones before process.exit", async () => {
    const script = `
      import { StdoutOncePerTurn } from "./api/platform/log-output.ts";
      import { createLogger } from "./api/platform/log.ts";
      import fs from "node:fs";
      let writes = 0;
      const writeSync = fs.writeSync;
      fs.writeSync = (fd, ...rest) => { if (fd === 1) writes++; return writeSync(fd, ...rest); };
      const out = new StdoutOncePerTurn();
      process.once("exit", () => process.stderr.write(String(writes)));
      const log = createLogger("info", out);
      for (let index = 0; index < 50; index++) log.info({ index }, "first turn");
      setImmediate(() => {
        for (let index = 50; index < 100; index++) log.info({ index }, "second turn");
        process.exit(0);
      });
    `;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      cwd: process.cwd(),
    });
    const indexes = stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { index: number }).index);
    expect(indexes).toEqual(Array.from({ length: 100 }, (_, index) => index));
    expect(stderr).toBe("2");
  });
});
