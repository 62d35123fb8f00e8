import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type HostLookup, vetDestination } from "../../fetch/address-guard.ts";
import { vettedLookup } from "../../fetch/pinned-agent.ts";
import type { CheckerSettings } from "../../settings.ts";
import { browserServiceRefusal } from "./browser-services.ts";
import type { RenderBudget } from "./render-budget.ts";

/** A request of the browser the proxy refused, and why (shown in the report's rendering summary). */
export interface ProxyRefusal {
  target: string;
  reason: string;
}

export interface GuardProxyOptions {
  settings: CheckerSettings;
  lookup: HostLookup;
  /** The scan's rendering budget; null refuses everything (the browser's own traffic, outside any scan). */
  budget: RenderBudget | null;
  /** How long a connection to a site may take to open, and how long a tunnel may sit idle. */
  timeoutMs: number;
  /** The scan's deadline: a name lookup still running when it fires ends there (as the fetcher's do). */
  signal?: AbortSignal;
}

/** Where a vetted request goes: the name, its port, and a lookup that answers only with the vetted addresses. */
interface Destination {
  host: string;
  port: number;
  lookup: ReturnType<typeof vettedLookup>;
  autoSelectFamily: true;
}

const REFUSALS_KEPT = 50;
// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded to the site.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** A target or reason from the page is untrusted text: bounded, without control characters. */
function bounded(text: string): string {
  const clean = text.replace(/\p{Cc}/gu, " ");
  return clean.length > 200 ? `${clean.slice(0, 199)}…` : clean;
}

/**
 * The forward proxy every request of a rendering goes through (HTTP with CONNECT, on 127.0.0.1, an ephemeral port, one
 * per scan). Each tunnel and each plain request is judged by the scanner's own address policy (`vetDestination`: http
 * and https, ports 80 and 443 unless allow-listed, every resolved address public unless allow-listed), then connects
 * only to the address it vetted, so a name cannot rebind between the check and the connection and Chromium, which
 * resolves nothing itself, never picks an address (the connection's lookup is the fetcher's `vettedLookup` over the
 * addresses just vetted). The browser's own service hosts are refused by name, and the
 * scan's budget (requests, bytes, hosts) is spent here.
 */
export class GuardProxy {
  private readonly options: GuardProxyOptions;
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();
  readonly refused: ProxyRefusal[] = [];
  /** Refusals past the first REFUSALS_KEPT, counted only. */
  refusedUncounted = 0;
  private port = 0;

  private constructor(options: GuardProxyOptions) {
    this.options = options;
    this.server = createServer((request, response) => void this.forward(request, response));
    this.server.on(
      "connect",
      (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(request, socket, head),
    );
    // A WebSocket handshake sent as a plain proxy request: Chromium tunnels WebSockets with CONNECT, so this is refused.
    this.server.on("upgrade", (request: IncomingMessage, socket: Duplex) => {
      this.refuse(request.url ?? "", "upgrades are only accepted through CONNECT");
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
    });
    this.server.on("connection", (socket: Socket) => this.track(socket));
  }

  static async start(options: GuardProxyOptions): Promise<GuardProxy> {
    const proxy = new GuardProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once("error", reject);
      proxy.server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = proxy.server.address();
    if (address === null || typeof address === "string") throw new Error("the guard proxy has no TCP address");
    proxy.port = address.port;
    return proxy;
  }

  /** What Chromium is told to use: `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops accepting and cuts every open connection and tunnel. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }

  /** Records a refused request (also one the page's routing refused for the budget), the first ones in full. */
  refuse(target: string, reason: string): void {
    if (this.refused.length < REFUSALS_KEPT) this.refused.push({ target: bounded(target), reason: bounded(reason) });
    else this.refusedUncounted += 1;
  }

  /**
   * Judges one destination: the browser's services by name, the budget, then the address policy. Answers the
   * address to connect to, or null after recording why not.
   */
  private async admit(shown: string, url: URL): Promise<Destination | null> {
    const { budget, settings, lookup, signal } = this.options;
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const refusal = budget === null ? "the browser may reach nothing outside a scan" : browserServiceRefusal(hostname);
    const spent = refusal ?? budget?.takeConnection(hostname) ?? null;
    if (spent !== null) {
      this.refuse(shown, spent);
      return null;
    }
    try {
      const vetted = await vetDestination(url, settings, lookup, signal);
      const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
      // The connection looks the name up only among the addresses just vetted (happy eyeballs across them).
      const pins = new Map([[vetted.hostname.toLowerCase(), vetted.addresses]]);
      return { host: vetted.hostname, port, lookup: vettedLookup(pins), autoSelectFamily: true };
    } catch (error) {
      this.refuse(shown, error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  private async tunnel(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    this.track(socket);
    const authority = request.url ?? "";
    const shown = `CONNECT ${authority}`;
    let url: URL;
    try {
      url = new URL(`http://${authority}/`);
      if (url.port === "" && !/:\d+$/.test(authority)) throw new Error("no port");
      if (url.port === "443" || authority.endsWith(":443")) url = new URL(`https://${url.hostname}/`);
    } catch {
      this.refuse(shown, "not a host:port");
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      return;
    }
    const destination = await this.admit(shown, url);
    if (destination === null) {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
      return;
    }
    const upstream = connect(destination);
    this.track(upstream);
    upstream.setTimeout(this.options.timeoutMs, () => upstream.destroy());
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
    upstream.once("connect", () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      this.relay(socket, upstream);
      this.relay(upstream, socket);
    });
    upstream.once("close", () => socket.destroy());
    socket.once("close", () => upstream.destroy());
  }

  /** Pipes one direction of a tunnel, counting its bytes against the budget; cuts both ends once it is spent. */
  private relay(from: Duplex, to: Duplex): void {
    from.on("data", (chunk: Buffer) => {
      if (this.options.budget?.addBytes(chunk.length) === false) {
        from.destroy();
        to.destroy();
        return;
      }
      if (!to.write(chunk)) {
        from.pause();
        to.once("drain", () => from.resume());
      }
    });
    from.once("end", () => to.end());
  }

  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const shown = `${request.method ?? "GET"} ${request.url ?? ""}`;
    let url: URL;
    try {
      url = new URL(request.url ?? "");
      if (url.protocol !== "http:") throw new Error("only http:// URLs are proxied in the clear");
    } catch {
      this.refuse(shown, "not an absolute http:// URL");
      response.writeHead(400, { connection: "close" }).end();
      return;
    }
    const destination = await this.admit(shown, url);
    if (destination === null) {
      response.writeHead(403, { "content-type": "text/plain", connection: "close" }).end("refused by the scan's guard");
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    const upstream = httpRequest({
      ...destination,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      timeout: this.options.timeoutMs,
    });
    upstream.on("timeout", () => upstream.destroy());
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502, { connection: "close" });
      response.end();
    });
    upstream.on("response", (answer) => {
      const answerHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
      response.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.on("data", (chunk: Buffer) => {
        if (this.options.budget?.addBytes(chunk.length) === false) {
          answer.destroy();
          response.destroy();
          return;
        }
        response.write(chunk);
      });
      answer.once("end", () => response.end());
    });
    request.on("data", (chunk: Buffer) => {
      if (this.options.budget?.addBytes(chunk.length) === false) upstream.destroy();
    });
    request.pipe(upstream);
  }
}
