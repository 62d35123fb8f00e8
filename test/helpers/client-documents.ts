import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const TLS = join(import.meta.dirname, "../fixtures/tls");
/** The loopback certificate's file: what OAUTH_CIMD_CA_FILE names for the authorization server. */
export const LOOPBACK_CA_FILE = join(TLS, "loopback-cert.pem");

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Client ID metadata documents served over https on loopback (test/fixtures/tls): what a client such
 * as VS Code or Claude Code publishes at its client_id URL. Each path answers as the test sets it; every
 * request is counted, so a test can tell a cached document from a fetched one.
 */
export interface ClientDocumentSite {
  /** `127.0.0.1:<port>`, for OAUTH_CIMD_ALLOWED_TARGETS. */
  hostPort: string;
  url(path: string): string;
  /** A JSON document at `path` whose client_id is its own URL unless `document` says otherwise. */
  publish(path: string, document: Record<string, unknown>, headers?: Record<string, string>): string;
  answer(path: string, handler: Handler): string;
  fetches(path: string): number;
  close(): Promise<void>;
}

export async function startClientDocumentSite(): Promise<ClientDocumentSite> {
  const handlers = new Map<string, Handler>();
  const counts = new Map<string, number>();
  const server: Server = createServer(
    { key: readFileSync(join(TLS, "loopback-key.pem")), cert: readFileSync(LOOPBACK_CA_FILE) },
    (request, response) => {
      const path = new URL(request.url ?? "/", "https://127.0.0.1").pathname;
      counts.set(path, (counts.get(path) ?? 0) + 1);
      const handler = handlers.get(path);
      if (handler) handler(request, response);
      else response.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = (path: string) => `https://${hostPort}${path}`;
  return {
    hostPort,
    url,
    publish(path, document, headers = {}) {
      const body = JSON.stringify({ client_id: url(path), ...document });
      handlers.set(path, (_request, response) =>
        response.writeHead(200, { "content-type": "application/json", ...headers }).end(body),
      );
      return url(path);
    },
    answer(path, handler) {
      handlers.set(path, handler);
      return url(path);
    },
    fetches: (path) => counts.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
