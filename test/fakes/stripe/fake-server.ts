import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Stripe from "stripe";
import { FakeError, FakeStripeState, type Json } from "./fake-state.ts";
import { list, metadataOf, parseFormBody, text } from "./form-body.ts";
import { hostedPage, receiptPage } from "./hosted-page.ts";

export interface SignedEvent {
  event: Json;
  /** The exact bytes to POST. */
  payload: string;
  /** The `Stripe-Signature` header for them, made by the SDK's own test helper. */
  header: string;
}

export interface FakeStripeOptions {
  webhookSecret: string;
  /** Where events go: a webhook URL, a function (in-process apps), or nowhere (the test delivers them). */
  deliverTo?: string | ((signed: SignedEvent) => Promise<unknown>);
  port?: number;
  host?: string;
}

const FAILURE_MODES = ["error", "hang", "malformed", "not-json"] as const;
type FailureMode = (typeof FAILURE_MODES)[number];

/**
 * A small stateful stand-in for the provider endpoints the service calls, on loopback, driven by
 * the real `stripe` SDK: form-encoded bodies with bracket keys, `Idempotency-Key` honoured (same
 * key and body replay the first answer; another body is a 400 `idempotency_error`), and failures
 * on demand (the next N calls answer 500, never answer, or answer 200 with something that is not the object
 * asked for, or not JSON at all).
 */
export class FakeStripe {
  readonly state = new FakeStripeState(() => this.url);
  /** Every API call received, in order (`GET /v1/checkout/sessions/cs_…`). */
  readonly calls: string[] = [];
  #server = createServer((req, res) => void this.#handle(req, res));
  #idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  #failures: { count: number; mode: FailureMode; path?: string } = { count: 0, mode: "error" };
  #hanging = new Set<ServerResponse>();
  #deliveries: Promise<unknown>[] = [];
  url = "";

  private readonly options: FakeStripeOptions;

  constructor(options: FakeStripeOptions) {
    this.options = options;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) =>
      this.#server.listen(this.options.port ?? 0, this.options.host ?? "127.0.0.1", resolve),
    );
    const address = this.#server.address();
    if (typeof address !== "object" || !address) throw new Error("the fake did not start");
    this.url = `http://${this.options.host ?? "127.0.0.1"}:${address.port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const response of this.#hanging) response.destroy();
    await this.idle();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /**
   * The next `count` API calls (to `path` only, when given) fail: `error` answers 500, `hang` never
   * answers, `malformed` answers 200 with JSON that is not the object asked for, `not-json` answers
   * 200 with an HTML page (as a proxy in the way might).
   */
  failNext(count: number, mode: FailureMode = "error", path?: string): void {
    this.#failures = { count, mode, ...(path ? { path } : {}) };
  }

  sign(event: Json): SignedEvent {
    const payload = JSON.stringify(event);
    return {
      event,
      payload,
      header: Stripe.webhooks.generateTestHeaderString({ payload, secret: this.options.webhookSecret }),
    };
  }

  async #deliver(event: Json): Promise<SignedEvent> {
    const signed = this.sign(event);
    const target = this.options.deliverTo;
    if (typeof target === "function") await target(signed);
    else if (target)
      await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signed.header },
        body: signed.payload,
      }).catch(() => undefined);
    return signed;
  }

  /** Waits until events sent in the background (after a refund call) have been delivered. */
  async idle(): Promise<void> {
    while (this.#deliveries.length > 0) await Promise.all(this.#deliveries.splice(0));
  }

  // Test controls: each changes the state as the buyer or the provider would, then delivers the event.
  pay = (sessionId: string, options: { email?: string; async?: boolean } = {}) =>
    this.#deliver(this.state.pay(sessionId, options));
  settleAsync = (sessionId: string, outcome: "succeeded" | "failed") =>
    this.#deliver(this.state.settleAsync(sessionId, outcome));
  expire = (sessionId: string) => this.#deliver(this.state.expire(sessionId));
  refund = (sessionId: string) => this.#deliver(this.state.refundSession(sessionId));
  dispute = (sessionId: string) => this.#deliver(this.state.disputeSession(sessionId));
  succeedIntent = (intentId: string) => this.#deliver(this.state.succeedIntent(intentId));

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const body = await new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (chunk: Buffer) => (data += chunk.toString()));
      req.on("end", () => resolve(data));
    });
    try {
      if (url.pathname.startsWith("/v1/")) return this.#api(req, res, url, body);
      if (url.pathname.startsWith("/pay/")) return await this.#hosted(req, res, url, body);
      if (url.pathname.startsWith("/receipts/"))
        return sendHtml(res, 200, receiptPage(this.state.chargeJson(decodeURIComponent(url.pathname.slice(10)))));
      if (url.pathname.startsWith("/_test/")) return await this.#control(res, url);
      send(res, 404, {
        error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method} ${url.pathname})` },
      });
    } catch (error) {
      if (error instanceof FakeError)
        send(res, error.status, {
          error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}) },
        });
      else
        send(res, 500, {
          error: { type: "api_error", message: error instanceof Error ? error.message : String(error) },
        });
    }
  }

  #api(req: IncomingMessage, res: ServerResponse, url: URL, body: string): void {
    this.calls.push(`${req.method} ${url.pathname}`);
    if (this.#failures.count > 0 && (this.#failures.path === undefined || this.#failures.path === url.pathname)) {
      this.#failures.count--;
      const { mode } = this.#failures;
      if (mode === "hang") this.#hanging.add(res);
      else if (mode === "malformed")
        send(res, 200, { id: 42, object: "surprise", client_secret: "pi_42_secret_leak", amount: "lots" });
      else if (mode === "not-json")
        res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Gateway says hello</body></html>");
      else send(res, 500, { error: { type: "api_error", message: "The fake was told to fail this call." } });
      return;
    }
    if (!/^Bearer sk_(test|live)_\S+$/.test(req.headers.authorization ?? ""))
      throw new FakeError(401, "invalid_request_error", "No valid API key provided.");
    const key = req.headers["idempotency-key"];
    const fingerprint = `${req.method} ${url.pathname} ${body}`;
    if (req.method === "POST" && typeof key === "string") {
      const previous = this.#idempotency.get(key);
      if (previous && previous.fingerprint !== fingerprint) {
        throw new FakeError(
          400,
          "idempotency_error",
          "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        );
      }
      if (previous) {
        sendRaw(res, previous.status, previous.body);
        return;
      }
    }
    const { status, json } = this.#route(req.method ?? "GET", url, body);
    const raw = JSON.stringify(json);
    if (req.method === "POST" && typeof key === "string")
      this.#idempotency.set(key, { fingerprint, status, body: raw });
    sendRaw(res, status, raw);
  }

  #route(method: string, url: URL, body: string): { status: number; json: Json } {
    const params = method === "GET" ? parseFormBody(url.search.slice(1)) : parseFormBody(body);
    const path = url.pathname;
    const expand = list(params.expand).map((value) => (typeof value === "string" ? value : ""));
    if (method === "POST" && path === "/v1/checkout/sessions")
      return { status: 200, json: this.state.createSession(params) };
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && session?.[1])
      return { status: 200, json: this.state.sessionJson(session[1], expand.includes("line_items")) };
    if (method === "POST" && path === "/v1/payment_intents")
      return { status: 200, json: this.state.createIntent(params) };
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intent?.[1])
      return { status: 200, json: this.state.intentJson(intent[1], expand.includes("latest_charge")) };
    const charge = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (method === "GET" && charge?.[1]) return { status: 200, json: this.state.chargeJson(charge[1]) };
    if (method === "POST" && path === "/v1/refunds") {
      const refund = this.state.refund({
        payment_intent: text(params.payment_intent),
        charge: text(params.charge),
        metadata: metadataOf(params.metadata),
      });
      // The provider tells the webhook later, not within the API call.
      this.#deliveries.push(new Promise((resolve) => setImmediate(resolve)).then(() => this.#deliver(refund.event)));
      return { status: 200, json: refund.refund };
    }
    throw new FakeError(404, "invalid_request_error", `Unrecognized request URL (${method} ${path})`);
  }

  /** The hosted checkout page and its form (no JavaScript); paying redirects to `success_url`. */
  async #hosted(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    const id = decodeURIComponent(url.pathname.slice("/pay/".length));
    if (req.method === "GET") return sendHtml(res, 200, hostedPage(this.state.sessionJson(id, true)));
    const form = new URLSearchParams(body);
    await this.pay(id, { email: form.get("email") ?? undefined, async: form.get("outcome") === "async" });
    const successUrl = String(this.state.sessionJson(id, false).success_url).replace("{CHECKOUT_SESSION_ID}", id);
    res.writeHead(303, { location: successUrl }).end();
  }

  /** The test controls over HTTP, for a fake started on its own (`serve.ts`) and browser tests. */
  async #control(res: ServerResponse, url: URL): Promise<void> {
    const match = /^\/_test\/(sessions|payment_intents)\/([^/]+)\/([a-z-]+)$/.exec(url.pathname);
    const [, kind, id = "", action] = match ?? [];
    const controls: Record<string, () => Promise<SignedEvent>> = {
      "sessions/pay": () => this.pay(id, { email: url.searchParams.get("email") ?? undefined }),
      "sessions/pay-async": () => this.pay(id, { async: true }),
      "sessions/async-succeed": () => this.settleAsync(id, "succeeded"),
      "sessions/async-fail": () => this.settleAsync(id, "failed"),
      "sessions/expire": () => this.expire(id),
      "sessions/refund": () => this.refund(id),
      "sessions/dispute": () => this.dispute(id),
      "payment_intents/succeed": () => this.succeedIntent(id),
    };
    if (url.pathname === "/_test/fail-next") {
      const mode = FAILURE_MODES.find((candidate) => candidate === url.searchParams.get("mode")) ?? "error";
      this.failNext(Number(url.searchParams.get("count") ?? "1"), mode);
      return send(res, 200, { ok: true });
    }
    const control = controls[`${kind}/${action}`];
    if (!control) throw new FakeError(404, "invalid_request_error", `No test control ${url.pathname}`);
    send(res, 200, (await control()).event);
  }
}

function sendRaw(res: ServerResponse, status: number, body: string): void {
  res
    .writeHead(status, {
      "content-type": "application/json",
      "request-id": `req_${Math.random().toString(36).slice(2)}`,
    })
    .end(body);
}

function send(res: ServerResponse, status: number, json: unknown): void {
  sendRaw(res, status, JSON.stringify(json));
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(html);
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  return new FakeStripe(options).start();
}
