import { IncomingMessage, ServerResponse } from "node:http";
import { fromNodeHandler, type H3, type H3Event } from "h3";
import type { PageServices } from "../../src/lib/page-services.ts";
import type { Config } from "../config.ts";
import { readLimited } from "../platform/body.ts";
import { clientAddress } from "../platform/http/client.ts";
import { isCrossSitePost } from "../platform/http/cross-site.ts";
import { documentHeadersFor } from "../platform/http/document-headers.ts";
import { requestIdOf } from "../platform/http/request-id.ts";
import type { Logger } from "../platform/log.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { AstroHandler } from "./astro-handler.ts";

/** A page Astro renders on demand (`prerender = false`), and the methods it answers. */
interface OnDemandPage {
  path: string;
  methods: readonly ("GET" | "POST")[];
  /**
   * Takes a POST from anywhere: the RFC 8058 one-click unsubscribe, which a mail client or a webmail
   * page POSTs to the link in `List-Unsubscribe`. The signed token in the path is the credential, so
   * a post from another site can do nothing its sender could not do with the link directly.
   */
  anyOrigin?: true;
}

export const ON_DEMAND_PAGES: readonly OnDemandPage[] = [
  { path: "/waitlist", methods: ["GET", "POST"] },
  { path: "/checks", methods: ["GET", "POST"] },
  { path: "/checks/:id", methods: ["GET", "POST"] },
  { path: "/store/return", methods: ["GET"] },
  { path: "/store/buy/:id", methods: ["POST"] },
  { path: "/monitors", methods: ["GET", "POST"] },
  { path: "/monitors/:id", methods: ["GET"] },
  { path: "/monitors/confirm/:token", methods: ["GET", "POST"] },
  { path: "/monitors/unsubscribe/:token", methods: ["GET", "POST"], anyOrigin: true },
];

/**
 * A form post from another site is refused: browsers send `Sec-Fetch-Site` and `Origin`, and a
 * forged cross-site post would otherwise act with the visitor's address (CSRF).
 */
function refuseCrossSite(event: H3Event, siteUrl: string): void {
  if (isCrossSitePost(event.req.method, event.req.headers, siteUrl))
    throw new ApiProblem("cross-site-form", "This form only accepts posts from this site.");
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A form's body as text, refusing (400) what is not UTF-8 rather than reading U+FFFD in its place:
 * neither its raw bytes nor, in a URL-encoded form, the bytes its `%XX` escapes spell (which the
 * form parser would otherwise decode leniently). What the text then says is the schemas' business.
 */
function formText(bytes: Uint8Array, contentType: string | null): string {
  const malformed = () => new ApiProblem("bad-request", "The form is not valid UTF-8: send its fields as UTF-8.");
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw malformed();
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType ?? "")) {
    for (const part of text.split("&")) {
      try {
        decodeURIComponent(part.replace(/\+/g, " "));
      } catch {
        throw malformed();
      }
    }
  }
  return text;
}

export interface PageRouteDeps {
  config: Pick<Config, "siteUrl" | "docsUrl" | "trustProxy" | "stripe" | "bodyLimitBytes">;
  log: Logger;
  /** The services a page may call, bound to the client's address (api/wiring/page-services.ts). */
  pageServices: (address: string) => PageServices;
}

export function registerPageRoutes(app: H3, { config, log, pageServices }: PageRouteDeps, handler: AstroHandler): void {
  const documentHeaders = documentHeadersFor(config);
  for (const page of ON_DEMAND_PAGES) {
    for (const method of page.methods) {
      app.on(method, page.path, async (event) => {
        if (!page.anyOrigin) refuseCrossSite(event, config.siteUrl);
        const node = event.runtime?.node;
        if (!node?.res) throw new ApiProblem("service-unavailable", "This page is rendered by the Node server only.");
        // A form is read here, under the body limit, and handed to the adapter as text (which it
        // takes in place of the stream): a client that hangs up mid-form is then a client abort
        // like any API request's, not an error inside the page's rendering.
        if (method === "POST") {
          const form = formText(await readLimited(event, config.bodyLimitBytes), event.req.headers.get("content-type"));
          if (form !== "") Object.assign(node.req, { body: form });
        }
        // The adapter writes to Node's response directly, past the app's response hook.
        for (const [name, value] of documentHeaders) node.res.setHeader(name, value);
        node.res.setHeader("X-Request-Id", requestIdOf(event));
        node.res.setHeader("Cache-Control", "no-store");
        const locals = { services: pageServices(clientAddress(event, config.trustProxy)) };
        log.info({ req_id: requestIdOf(event), method, path: page.path }, "page");
        return fromNodeHandler((req, res, next) => {
          // This server speaks HTTP/1.1 (node:http); the adapter expects exactly that.
          if (!(req instanceof IncomingMessage) || !(res instanceof ServerResponse))
            throw new Error("HTTP/1.1 request expected");
          return handler(req, res, next, locals);
        })(event);
      });
    }
  }
}
