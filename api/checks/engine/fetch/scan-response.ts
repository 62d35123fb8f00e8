import { createHash } from "node:crypto";
import type { BudgetClaim } from "../budget/request-budget.ts";
import type { ResponseFault } from "./response-fault.ts";

export type ScanMethod = "GET" | "HEAD" | "POST";

/** One answer as the checks see it, after redirects, with its faults recorded rather than thrown. */
export interface ScanResponse {
  method: ScanMethod;
  requestUrl: string;
  /** Where the last hop was answered, after at most `maxRedirects` hops. */
  url: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", " (RFC 9110 §5.3). */
  headers: Readonly<Record<string, string>>;
  body: Buffer;
  text: string;
  /** Byte offset of the first byte that is not UTF-8, or null when the body is valid UTF-8. */
  invalidUtf8At: number | null;
  redirects: readonly string[];
  requestHeaders: Readonly<Record<string, string>>;
  /** What was wrong with the answer, recorded rather than thrown so the checks can judge it. */
  fault: ResponseFault | null;
}

/** The response varies on Accept (RFC 9110 §12.5.5): another Accept may get another representation. */
export function variesOnAccept(response: ScanResponse): boolean {
  return (response.headers.vary ?? "").split(",").some((name) => ["accept", "*"].includes(name.trim().toLowerCase()));
}

const digests = new WeakMap<ScanResponse, string>();

/** SHA-256 of a response body, computed once per response. */
export function bodyDigest(response: ScanResponse): string {
  let digest = digests.get(response);
  if (digest === undefined) {
    digest = createHash("sha256").update(response.body).digest("hex");
    digests.set(response, digest);
  }
  return digest;
}

/** How a request draws on the budget (`sample`, `firstSample`) is said on BudgetClaim. */
export interface ScanRequest extends Partial<BudgetClaim> {
  method?: ScanMethod;
  url: string | URL;
  /** Header names in lower case; `user-agent` overrides the scanner's own only for the bot-parity probe. */
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** Content negotiation probes: never answer from a response fetched with another Accept. */
  exact?: boolean;
  /**
   * The scan acting on the site rather than reading a document it links (an error probe, an API call, an MCP
   * request; every POST is one): sent only to the checked origin, and a redirect elsewhere is not followed.
   */
  probe?: boolean;
  /** Called once per network request this call sends (redirect hops included), so a check can count its own. */
  onSent?: () => void;
}

export interface FetchOutcome {
  response: ScanResponse;
  /** Served from this scan's cache: no request was sent. */
  reused: boolean;
}
