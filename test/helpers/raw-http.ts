import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "h3/node";
import { withHotRoutes } from "../../api/fast-path/hot-routes.ts";
import { createLogger } from "../../api/platform/log.ts";
import type { SiteFiles } from "../../api/site/site-files.ts";
import { hotRoutesFor } from "../../api/wiring/app.ts";
import type { TestApp } from "./app.ts";

/** A response as it crossed the socket: the body is not decoded (Node's fetch would undo a Content-Encoding). */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Names and values in turn, in the order and case they were sent. */
  rawHeaders: string[];
  body: Buffer;
}

/** One request with node:http, which leaves the body as the server coded it. */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  /** A list of values sends the field once per value. */
  headers: Record<string, string | string[]> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${base}${path}`, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          rawHeaders: incoming.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** The test app on a real socket, with the fast path in front of it as `api/server.ts` has it. */
export async function listenLikeTheServer(t: TestApp, site: SiteFiles): Promise<{ base: string; server: Server }> {
  const log = createLogger("silent");
  const server = createServer(withHotRoutes(hotRoutesFor(t.services, site, log), toNodeHandler(t.app)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
