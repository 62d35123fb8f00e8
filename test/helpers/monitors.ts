import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { toNodeHandler } from "h3/node";
import { createLogger } from "../../api/platform/log.ts";
import { type CorpusSite, corpusHandler, listCorpusSites } from "../fixtures/sites/corpus.ts";
import { type FixtureSite, notFound, pathOf, startFixtureSite } from "../fixtures/sites/serve.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "./smtp.ts";

/** A clock the test moves: scheduling reads it, so time passes without sleeping. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function testClock(start = "2026-11-26T09:00:00.000Z"): TestClock {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    advance(ms) {
      at += ms;
    },
  };
}

export const DAY_MS = 86_400_000;

/** A message as the SMTP server received it: its envelope recipient, subject, both parts and every header. */
export interface DeliveredMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A header field of the message, unfolded and decoded ("" when absent). */
  header(name: string): string;
}

/** The app with its pages on a real socket, real SMTP, and a clock the test moves. */
export interface MonitorBed {
  t: TestApp;
  base: string;
  smtp: SmtpSink;
  clock: TestClock;
  /** A request to the app over the socket, with a JSON body when one is given. */
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A page's form posted as a browser on this site would post it. */
  postForm(path: string, fields: Record<string, string>): Promise<Response>;
  /** Sends the outbox and answers the messages the SMTP server received since the last call. */
  deliver(): Promise<DeliveredMail[]>;
  /** A new agent's token: a staff-issued monitor agent with `monitors:write`, or one registered over the API. */
  agentToken(kind?: "watcher" | "unscoped"): Promise<string>;
  close(): Promise<void>;
}

export async function startMonitorBed(
  env: Record<string, string> = {},
  options: Pick<Parameters<typeof createTestApp>[0] & object, "checkerLookup"> = {},
): Promise<MonitorBed> {
  const smtp = await startSmtpSink();
  const clock = testClock();
  const errors: string[] = [];
  const log = createLogger(
    "error",
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        errors.push(chunk.toString());
        done();
      },
    }),
  );
  const t = await createTestApp({
    env: { SMTP_URL: smtp.url, ...env },
    now: clock.now,
    withPages: true,
    log,
    ...(options.checkerLookup ? { checkerLookup: options.checkerLookup } : {}),
  });
  // Served on a socket, the app's 500s do not reach createTestApp's trap: this one fails the test instead.
  const checked = async (response: Promise<Response>) => {
    const answered = await response;
    const crashes = errors.splice(0).filter((line) => /"msg":"(unhandled error|MCP tool failed)"/.test(line));
    if (crashes.length > 0) throw new Error(`The app failed unexpectedly (a 500):\n${crashes.join("\n")}`);
    return answered;
  };
  const server: Server = createServer(toNodeHandler(t.app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let seen = 0;
  const send: MonitorBed["send"] = (method, path, body, headers = {}) =>
    checked(
      fetch(`${base}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  return {
    t,
    base,
    smtp,
    clock,
    send,
    postForm: (path, fields) =>
      checked(
        fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
          redirect: "manual",
        }),
      ),
    async deliver() {
      await t.services.mail.deliverDue();
      const fresh = smtp.received.slice(seen);
      seen = smtp.received.length;
      return fresh.map((mail) => ({
        to: mail.to.join(","),
        subject: headerValue(mail.raw, "Subject"),
        text: mimePart(mail.raw, "text/plain"),
        html: mimePart(mail.raw, "text/html"),
        header: (name: string) => headerValue(mail.raw, name),
      }));
    },
    async agentToken(kind = "watcher") {
      const identity = { agent_name: "Watcher", agent_type: "monitor", operator_type: "company" as const };
      const registered =
        kind === "watcher"
          ? await t.services.agents.register(identity, "staff", ["monitors:write"])
          : await t.services.agents.register(identity, "api");
      return registered.token;
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await t.close();
      await smtp.close();
    },
  };
}

/** A header of a raw message, unfolded, with its RFC 2047 encoded words (`=?UTF-8?Q?…?=`) decoded. */
export function headerValue(raw: string, name: string): string {
  const head = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  const value = new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1] ?? "";
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, coding: string, text: string) =>
      coding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(
            text
              .replace(/_/g, " ")
              .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            "latin1",
          ).toString("utf8"),
    );
}

/** The path of the first link in a text e-mail that starts with `prefix` (the build's own origin is not this socket's). */
export function linkPath(text: string, prefix: string): string {
  const [first] = linkPaths(text, prefix);
  if (!first) throw new Error(`no ${prefix} link in:\n${text}`);
  return first;
}

/** The paths of every link in a text e-mail whose path contains `prefix`, in order. */
export function linkPaths(text: string, prefix: string): string[] {
  return text
    .split(/\s+/)
    .filter((word) => /^https?:\/\//.test(word) && word.includes(prefix))
    .map((url) => new URL(url).pathname);
}

/**
 * Asks to watch `domain` for `email` and follows the confirmation link of the e-mail through the API
 * (the address must have no other request waiting); answers the monitor's public id.
 */
export async function watchByMail(
  bed: MonitorBed,
  domain: string,
  email: string,
  options: { profile?: string; headers?: Record<string, string> } = {},
): Promise<string> {
  const body = { domain, email, frequency: "daily", ...(options.profile ? { profile: options.profile } : {}) };
  const asked = await bed.send("POST", "/api/v1/monitors", body, options.headers);
  if (asked.status !== 202)
    throw new Error(`asking to watch ${domain} answered ${asked.status}: ${await asked.text()}`);
  const mail = (await bed.deliver()).find((candidate) => candidate.to === email);
  const token =
    linkPath(mail?.text ?? "", "/monitors/confirm/")
      .split("/")
      .at(-1) ?? "";
  const confirmed = await bed.send("POST", "/api/v1/monitors/confirm", { token });
  if (confirmed.status !== 200) throw new Error(`confirming ${domain} answered ${confirmed.status}`);
  return new URL(((await confirmed.json()) as { url: string }).url).pathname.split("/").at(-1) ?? "";
}

export function corpusSite(name: string): CorpusSite {
  const site = listCorpusSites().find((candidate) => candidate.name === name);
  if (!site) throw new Error(`no corpus site ${name}`);
  return site;
}

/** A fixture site that can change between runs: it serves a corpus site, less the paths taken away. */
export interface ChangingSite extends FixtureSite {
  /** These paths answer 404 from now on (the site lost them). */
  remove(...paths: string[]): void;
  /** Every path answers as the corpus site again. */
  restore(): void;
}

export async function startChangingSite(name: string): Promise<ChangingSite> {
  const serveCorpus = corpusHandler(corpusSite(name));
  const removed = new Set<string>();
  const site = await startFixtureSite((request, response, origin) => {
    if (removed.has(pathOf(request))) return notFound(request, response);
    return serveCorpus(request, response, origin);
  });
  return {
    ...site,
    remove: (...paths) => {
      for (const path of paths) removed.add(path);
    },
    restore: () => removed.clear(),
  };
}
