import pino, { type Logger } from "pino";

export type { Logger };

/**
 * JSON logs on stdout. Secrets never reach a log line: authorization, cookies and anything named
 * like a token, code, secret or e-mail are censored wherever they appear in a logged object.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: ["authorization", "cookie", "token", "code", "secret", "email", "password", "client_secret", "*.authorization", "*.token", "*.code", "*.secret", "*.email", "*.client_secret", "headers.authorization", "headers.cookie"],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

/** Capability URLs carry their secret in the path: keep only a short prefix in logs. */
export function redactPath(path: string): string {
  return path
    .replace(/^(\/api\/v1\/downloads\/)[^/?]+/, "$1[redacted]")
    .replace(/^(\/api\/v1\/store\/sessions\/cs_(?:test|live)_)[^/?]+/, "$1[redacted]")
    .replace(/^((?:\/api\/v1)?\/checks\/)[0-9a-f-]{36}/, "$1[redacted]")
    .replace(/\?.*$/, "");
}
