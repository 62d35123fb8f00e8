import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../api/platform/log.ts";

export interface CapturedLog {
  log: Logger;
  /** Every line written so far, parsed. */
  lines: () => Record<string, unknown>[];
  clear: () => void;
}

/** A real pino logger whose JSON lines are kept in memory for a test to read. */
export function captureLog(level: string): CapturedLog {
  let lines: string[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(...chunk.toString().trim().split("\n"));
      done();
    },
  });
  return {
    log: createLogger(level, sink),
    lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => {
      lines = [];
    },
  };
}
