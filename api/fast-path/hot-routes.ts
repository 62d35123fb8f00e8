import type { IncomingMessage, ServerResponse } from "node:http";
import { namesAsWritten } from "../platform/http/responses.ts";

/**
 * A route answered on node:http itself, ahead of the app, when everything it needs is already in
 * memory. It returns false to hand the request to the app, which answers every other case (errors,
 * stale readings, cache misses) through the one ordinary path; so a hot route only ever repeats the
 * app's success answer, byte for byte, without h3's request and response objects around it. A
 * route that must wait for something (the turn's standing epoch) returns true and later either
 * answers or calls `handOver`, which gives the request to the app.
 */
export type HotRoute = (request: IncomingMessage, response: ServerResponse, handOver: () => void) => boolean;

/** The request headers the hot routes read. */
export interface HotHeaders {
  authorization: string | null;
  accept: string | null;
  "accept-encoding": string | null;
  "if-none-match": string | null;
  "x-request-id": string | null;
}

const noHotHeaders = (): HotHeaders => ({
  authorization: null,
  accept: null,
  "accept-encoding": null,
  "if-none-match": null,
  "x-request-id": null,
});

/**
 * The headers the hot routes read, straight from `rawHeaders`; undefined when one of them was sent
 * more than once, so the app answers by its own rules for repeated fields. `request.headers` would
 * not tell: Node keeps the first of a repeated Authorization and joins repeated Accepts, and the app
 * (srvx) joins both.
 */
export function hotHeaders(request: IncomingMessage): HotHeaders | undefined {
  const found = noHotHeaders();
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const key = hotHeaderKey(raw[index] ?? "");
    if (key === undefined) continue;
    if (found[key] !== null) return undefined;
    found[key] = raw[index + 1] ?? "";
  }
  return found;
}

/** Only a name of one of these lengths can be a hot header: the rest (Host, User-Agent…) are never lower-cased. */
const HOT_HEADER_LENGTHS = new Set(Object.keys(noHotHeaders()).map((name) => name.length));

/**
 * The `HotHeaders` field a header name sent in any case fills, if any. The field names come back as
 * literals: looking a fresh lower-cased string up as a property name cost about 900 instructions
 * per request of GET /api/v1/agents/me (callgrind; the whole route's are in ./README.md), paid for by
 * `npm run bench -- api` (≥ 0.6 of a hello-world).
 */
function hotHeaderKey(sent: string): keyof HotHeaders | undefined {
  if (!HOT_HEADER_LENGTHS.has(sent.length)) return undefined;
  switch (sent.toLowerCase()) {
    case "authorization":
      return "authorization";
    case "accept":
      return "accept";
    case "accept-encoding":
      return "accept-encoding";
    case "if-none-match":
      return "if-none-match";
    case "x-request-id":
      return "x-request-id";
    default:
      return undefined;
  }
}

type NodeListener = (request: IncomingMessage, response: ServerResponse) => unknown;

/** The server's listener: a hot route for the exact URL answers if it can, else the app does. */
export function withHotRoutes(routes: ReadonlyMap<string, HotRoute>, app: NodeListener): NodeListener {
  return (request, response) => {
    const route = routes.get(request.url ?? "");
    if (route?.(request, response, () => void app(request, response))) return;
    return app(request, response);
  };
}

/**
 * Writes a whole response from the same header tuples the app's responses use, their names already
 * as srvx writes them (lower case, `namesAsWritten`): they are written as given, so both paths send
 * the same bytes. A body gets its content-length; without one (HEAD, 304) nothing is added, as srvx does.
 */
export function writeWholeResponse(
  response: ServerResponse,
  status: number,
  headers: readonly [string, string][],
  body: string | Uint8Array | null,
): void {
  // srvx writes no reason phrase for the app's responses: none here either, so both paths match.
  response.writeHead(status, "", flatHead(headers, body));
  if (body === null) response.end();
  else response.end(body);
}

/**
 * A whole response built once and sent to many requests, which differ only in their request id:
 * the header that carries `requestIdSlot` when it is built gets each request's own. Building the
 * headers per request was a fifth of the hot standing route's CPU (`npm run bench -- api`).
 */
export class PreparedResponse {
  /** Header names and values in turn, as writeHead takes them; the request id's value is rewritten per send. */
  readonly #head: string[];
  readonly #requestIdAt: number;

  private readonly status: number;
  private readonly body: string;

  constructor(status: number, headers: readonly [string, string][], body: string, requestIdSlot: string) {
    this.status = status;
    this.body = body;
    this.#head = flatHead(namesAsWritten(headers), body);
    this.#requestIdAt = this.#head.indexOf(requestIdSlot);
    if (this.#requestIdAt === -1) throw new Error("a prepared response needs a request id header");
  }

  send(response: ServerResponse, requestId: string): void {
    // writeHead renders the head into a string before it returns, so the one array can carry each
    // request's id in turn; no copy per request.
    this.#head[this.#requestIdAt] = requestId;
    response.writeHead(this.status, "", this.#head);
    response.end(this.body);
  }
}

function flatHead(headers: readonly [string, string][], body: string | Uint8Array | null): string[] {
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  if (body !== null)
    flat.push("content-length", String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength));
  return flat;
}
