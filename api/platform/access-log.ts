import { type Logger, redactPath, sinkOf } from "./log.ts";

export interface RequestLine {
  requestId: string;
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
  sink.write(
    `{"level":"${level}","time":${Date.now()},"req_id":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},` +
      `"path":${JSON.stringify(redactPath(line.path))},"status":${line.status},"ms":${Math.round(line.ms * 10) / 10},"msg":"request"}\n`,
  );
}
