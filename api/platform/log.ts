import pino, { type Logger } from "pino";

export type { Logger };

/**
 * JSON logs on stdout, one object per line, `time` in epoch milliseconds. Nothing logs a request's
 * headers or body: log calls pass only fields chosen for them (method, a redacted path, status,
 * timings, ids), so secrets and e-mail addresses never reach a line. pino's own redaction would be
 * the wrong tool here: it runs on every call and cost a fifth of a small request's CPU.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const sink = destination ?? pino.destination({ dest: 1, sync: true });
  const log = pino({ level, base: undefined, formatters: { level: (label) => ({ level: label }) } }, sink);
  SINKS.set(log, sink);
  return log;
}

/** Each logger's destination, for lines written whole (access-log.ts); pino's typings hide its own. */
const SINKS = new WeakMap<Logger, pino.DestinationStream>();

/** Where a logger made by `createLogger` writes; lines written here stay in order with its own. */
export function sinkOf(log: Logger): pino.DestinationStream | undefined {
  return SINKS.get(log);
}
