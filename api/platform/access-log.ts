import { redactPath } from "../../src/lib/redacted-paths.ts";
import type { RequestId } from "./http/request-id.ts";
import { type Logger, sinkOf } from "./log.ts";

export interface RequestLine {
  requestId: RequestId;
  method: string;
  path: string;
  status: number;
  /** Milliseconds from arrival to the response being handed to the socket. */
  ms: number;
}

/**
 * The one line every request leaves, in exactly the shape pino writes for
 * `log[level]({ req_id, method, path, status, ms }, "request")`, built by hand and written to the
 * logger's own stream (so it stays in order with every other line). pino's general serialiser cost
 * about 18 µs per request on the 2-core benchmark machine, a fifth of a small request: paid for by
 * `npm run bench -- api` (GET /api/v1/agents/me against a hello-world, target ≥ 0.6).
 * Only these fields are ever written, and the path is redacted: no header, body or secret reaches it.
 */
export function logRequestLine(log: Logger, level: "info" | "debug", line: RequestLine): void {
  if (!log.isLevelEnabled(level)) return;
  const sink = sinkOf(log);
  if (!sink) {
    log[level](
      {
        req_id: line.requestId,
        method: line.method,
        path: redactPath(line.path),
        status: line.status,
        ms: Math.round(line.ms * 10) / 10,
      },
      "request",
    );
    return;
  }
  sink.write(formatLine(level, line.requestId, methodAndPath(line.method, line.path), line.status, line.ms));
}

/**
 * `logRequestLine` for a route that always logs the same method and path: the path is redacted and
 * both are encoded once, not per request (the hot route of `GET /api/v1/agents/me`, paid for by
 * `npm run bench -- api`, ≥ 0.6 of a hello-world).
 */
export function requestLogger(
  log: Logger,
  level: "info" | "debug",
  method: string,
  path: string,
): (requestId: RequestId, status: number, ms: number) => void {
  const sink = sinkOf(log);
  const fixed = methodAndPath(method, path);
  return (requestId, status, ms) => {
    if (!log.isLevelEnabled(level)) return;
    if (sink) sink.write(formatLine(level, requestId, fixed, status, ms));
    else logRequestLine(log, level, { requestId, method, path, status, ms });
  };
}

function methodAndPath(method: string, path: string): string {
  return `"method":${JSON.stringify(method)},"path":${JSON.stringify(redactPath(path))}`;
}

function formatLine(level: string, requestId: RequestId, methodAndPath: string, status: number, ms: number): string {
  // A RequestId is letters, digits, `.`, `_` and `-` only, so as a JSON string it needs no escaping:
  // JSON.stringify was about 900 instructions per request of the GET /api/v1/agents/me hot route
  // (callgrind; api/fast-path/README.md), paid for by `npm run bench -- api` (≥ 0.6 of a hello-world).
  return (
    `{"level":"${level}","time":${Date.now()},"req_id":"${requestId}",${methodAndPath},` +
    `"status":${status},"ms":${Math.round(ms * 10) / 10},"msg":"request"}\n`
  );
}
