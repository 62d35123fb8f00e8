import type { Configuration } from "oidc-provider";
import { type Dispatcher, request } from "undici";
import type { Logger } from "../platform/log.ts";

/** The largest client ID metadata document read (draft-ietf-oauth-client-id-metadata-document §4.1: 5 KB). */
export const CLIENT_DOCUMENT_LIMIT_BYTES = 5 * 1024;

/**
 * Opens the way to one URL only after vetting it: https, port 443, and every address its name resolves
 * to public (unless a test allowance lists it); the dispatcher connects to the vetted addresses and
 * nothing else, so the name cannot rebind in between. The checker's SSRF guard, passed in by the wiring.
 */
export interface OutboundGuard {
  open(url: URL): Promise<Dispatcher>;
}

class DocumentTooLarge extends Error {}

/** Reads at most `limit` bytes of a body, failing as soon as it is longer (never buffering more). */
async function readCapped(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    if (received > limit) throw new DocumentTooLarge(`the document is larger than ${limit} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * oidc-provider's `fetch` hook, for the one thing it fetches here: client ID metadata documents. The
 * library already insists on an https `client_id` without fragment, userinfo or dot segments, sends
 * `redirect: manual` and accepts only a 200, checks the document's `client_id` equals the URL, refuses
 * secret-based authentication, caps the body at its limit and caches a document 30 s to 24 h (never a
 * failure). This hook puts every connection through our SSRF guard instead of the library's own, never
 * follows a redirect (a 3xx is handed back as it is, and refused), and stops reading past 5 KB.
 */
export function clientDocumentFetch(
  guard: OutboundGuard,
  log: Logger,
  userAgent: string,
): NonNullable<Configuration["fetch"]> {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    let dispatcher: Dispatcher | undefined;
    try {
      dispatcher = await guard.open(url);
      const answer = await request(url, {
        method: "GET",
        dispatcher,
        headers: { accept: "application/json", "user-agent": userAgent },
        signal: init?.signal ?? AbortSignal.timeout(2_500),
      });
      const headers = headersOf(answer.headers);
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        log.warn({ client_id: url.href, status: answer.statusCode }, "client ID metadata document refused: not a 200");
        return new Response(null, { status: answer.statusCode, headers });
      }
      const body = await readCapped(answer.body, CLIENT_DOCUMENT_LIMIT_BYTES);
      return new Response(new Uint8Array(body), { status: 200, headers });
    } catch (error) {
      log.warn(
        { client_id: url.href, err: error instanceof Error ? error.message : String(error) },
        "client ID metadata document refused",
      );
      throw error;
    } finally {
      await dispatcher?.close().catch(() => undefined);
    }
  };
}
