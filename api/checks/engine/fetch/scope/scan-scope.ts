import { type CheckerSettings, isAllowListed } from "../../settings.ts";
import { ScanFetchError } from "../scan-fetch-error.ts";
import type { ScanMethod } from "../scan-response.ts";

/**
 * Where a scan acts and whom it vouches for (content/docs/checks/crawler.md): documents are read wherever the site
 * links them, but probes (an error probe, an API call, an MCP request; every POST) go only to the checked origin, and
 * only requests to the checked origin carry the crawler's signature.
 */
export class ScanScope {
  /** The origin being checked; null only for a fetcher used outside a scan (tests of the fetcher itself). */
  readonly origin: string | null;
  private readonly settings: CheckerSettings;

  constructor(origin: string | null, settings: CheckerSettings) {
    this.origin = origin;
    this.settings = settings;
  }

  onOrigin(href: string): boolean {
    return this.origin === null || new URL(href).origin === this.origin;
  }

  /**
   * A signature vouches for the crawler to the site that was asked about, never to a host a redirect or a document
   * points at, and never in clear text, where it could be replayed for its lifetime: only https requests to the checked
   * origin are signed. Allow-listed local targets (fixtures, the service itself; never in production) have no TLS and
   * are signed over http.
   */
  signs(href: string): boolean {
    const url = new URL(href);
    return this.onOrigin(href) && (url.protocol === "https:" || isAllowListed(url, this.settings));
  }

  /** The error for a probe aimed at another origin, which is never sent. */
  offOrigin(method: ScanMethod, url: string): ScanFetchError {
    return new ScanFetchError(
      "off-origin",
      `not sent (${method} ${url}): the scanner sends probes only to the origin it checks (${this.origin ?? "none"})`,
      url,
    );
  }
}
