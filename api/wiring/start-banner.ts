import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { SWITCH_NAMES, type Switches } from "../../src/lib/switches.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../platform/log.ts";

/** A part of the service that is not working yet, and the one thing that turns it on. */
export interface OffFeature {
  feature: string;
  effect: string;
  turnOn: string;
}

/** What the person who just started the server needs to know before the logs begin. */
export interface StartFacts {
  url: string;
  port: number;
  /** Where the socket listens; the text banner names it only when the public URL differs (a proxy, a CDN). */
  listening: string;
  /** The JavaScript runtime that answers, e.g. `Node.js 24.22.3`: the one `npm ci` pinned, or the system's. */
  runtime: string;
  database: string;
  /** Who takes payments, when they are on. */
  payments: string | undefined;
  mail: string;
  off: OffFeature[];
  stop: string;
}

export interface StartState {
  /** The port the server got (PORT=0 asks the system for one). */
  port: number;
  /** The embedded database file, or undefined for a libSQL server. */
  databasePath: string | undefined;
  switches: Switches;
  buildFound: boolean;
}

const OUTBOX_COMMAND = "`npm run admin -- outbox list`";
// The demo points payments at a fake, which production refuses: offered only outside it.
const DEMO_HINT = " (or try `npm run demo`: a local fake provider)";

export function describeStart(config: Config, state: StartState): StartFacts {
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: config.siteUrl,
    port: state.port,
    listening: `http://${host}:${state.port}`,
    runtime: `Node.js ${process.versions.node}`,
    database: state.databasePath ?? `libSQL server at ${withoutCredentials(config.database.url)}`,
    payments: paymentsProvider(config),
    mail: config.mail.smtpUrl
      ? `sent through ${withoutCredentials(config.mail.smtpUrl)} from ${config.mail.from}`
      : `kept in the outbox; ${OUTBOX_COMMAND} prints each message with its links`,
    off: offFeatures(config, state),
    stop: "Ctrl-C (SIGINT) or SIGTERM: in-flight requests finish first",
  };
}

function paymentsProvider({ stripe }: Config): string | undefined {
  if (!stripe.secretKey) return undefined;
  if (stripe.apiBase) return `a stand-in for Stripe at ${withoutCredentials(stripe.apiBase)} (STRIPE_API_BASE)`;
  return `Stripe, ${stripe.secretKey.startsWith("sk_live_") ? "live" : "test"} mode`;
}

function offFeatures(config: Config, state: StartState): OffFeature[] {
  const off: OffFeature[] = [];
  if (!state.buildFound)
    off.push({
      feature: "the site",
      effect: `no build in ${config.distDir}, so pages and documents answer 503`,
      turnOn: "`npm run build` (or start with `npm start`)",
    });
  if (!config.stripe.secretKey)
    off.push({
      feature: "payments",
      effect: "store checkout and report unlocks answer 503",
      turnOn: `STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET${config.env === "production" ? "" : DEMO_HINT}`,
    });
  else if (!config.stripe.webhookSecret)
    off.push({
      feature: "payment webhooks",
      effect: "the provider's events are refused with 503",
      turnOn: "STRIPE_WEBHOOK_SECRET",
    });
  if (!config.mail.smtpUrl)
    off.push({ feature: "outgoing mail", effect: "e-mails wait in the outbox", turnOn: "SMTP_URL (and MAIL_FROM)" });
  for (const name of SWITCH_NAMES)
    if (!state.switches[name])
      off.push({
        feature: name,
        effect: "switched off by staff",
        turnOn: `\`npm run admin -- switches set ${name} on\``,
      });
  return off;
}

/** Credentials in a URL (smtps://user:pass@…, ?authToken=…) never reach the terminal or the logs. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}

export function bannerText(facts: StartFacts): string {
  const listening = facts.listening === facts.url ? "" : ` (listening on ${facts.listening})`;
  const rows = [
    ["Runtime", facts.runtime],
    ["Database", facts.database],
    ...(facts.payments ? [["Payments", facts.payments]] : []),
    ["Mail", facts.mail],
    ...facts.off.map((item, index) => [
      index === 0 ? "Off" : "",
      `${item.feature}: ${item.effect}; turn on with ${item.turnOn}`,
    ]),
    ["Docs", `${facts.url}/docs (API description: ${facts.url}/openapi.json)`],
  ];
  return [
    `AgentReady is running at ${facts.url}${listening}`,
    ...rows.map(([label, value]) => `  ${(label ? `${label}:` : "").padEnd(10)}${value}`),
    "Press Ctrl-C to stop.",
    "",
  ].join("\n");
}

/**
 * Text for a person at a terminal, one JSON log line for a log collector: the banner's facts either
 * way. Written before the held JSON logs are released, so it is the first thing on stdout.
 */
export function announceStart(config: Config, facts: StartFacts, log: Logger): void {
  if (config.logFormat === "json") {
    log.info(facts, "listening");
    return;
  }
  process.stdout.write(bannerText(facts));
  log.info({ port: facts.port, site: facts.url, runtime: facts.runtime }, "listening");
}

/** The request id the server's own start-up requests carry, so their access-log lines say what they are. */
export const START_UP_REQUEST_ID = "start-up-check";

/**
 * Answers the service's first requests before it listens where clients reach it, so the banner's
 * "running" holds from its first word: `GET /health`, then `GET /checks`, an on-demand page whose
 * first rendering loads and compiles the page machinery (0.8–2.2 s after the banner on a busy
 * machine, measured; about 50 ms once warmed). They go through the same handler on a loopback port
 * of its own, closed again at once. At most five seconds each; on any failure the start goes on.
 */
export async function warmUp(handler: RequestListener): Promise<void> {
  const probe = createServer(handler);
  try {
    await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    for (const path of ["/health", "/checks"]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        headers: { "x-request-id": START_UP_REQUEST_ID },
        signal: AbortSignal.timeout(5_000),
      });
      await response.arrayBuffer();
    }
  } catch {
    // No loopback port, or a page that would not answer: the clients' first requests warm it instead.
  } finally {
    probe.closeAllConnections();
    probe.close();
  }
}
