import type { Sql } from "../db/sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import type { StoreCatalogue } from "./catalogue.ts";
import { DOWNLOAD_LINK_TTL_MS, signDownloadToken, verifyDownloadToken } from "./download-links.ts";
import { SESSION_ID_PATTERN } from "./purchase-sessions.ts";
import { findEntitlement, isEntitlementActive } from "./sql/entitlements.ts";
import { type EntitlementRow, findOrderBySession } from "./sql/orders.ts";

export interface StoreDownloadsDeps {
  db: () => Sql;
  now: () => Date;
  catalogue: StoreCatalogue;
  siteUrl: string;
  /** New links are signed with `current`; links e-mailed before a rotation verify under `previous`. */
  secrets: SecretRing;
  keys: LookupKeys;
}

/** A purchased file, ready to stream. */
export interface PurchasedFile {
  path: string;
  /** The product's `file_type`. */
  type: string;
  /** The name browsers save it under. */
  filename: string;
}

function entitlementEnded(entitlement: EntitlementRow): ApiProblem {
  const why = entitlement.revoked_at
    ? `The purchase was ${entitlement.revoke_reason === "dispute" ? "disputed" : entitlement.revoke_reason === "refund" ? "refunded" : "revoked by staff"}, so downloads have ended.`
    : `The download entitlement ended at ${entitlement.expires_at}.`;
  return new ApiProblem("entitlement-ended", why);
}

/**
 * Decides whether a download may happen, never changing anything: mail scanners and link
 * previews open links, so a GET must not use anything up (DESIGN §5).
 */
export class StoreDownloads {
  private readonly deps: StoreDownloadsDeps;

  constructor(deps: StoreDownloadsDeps) {
    this.deps = deps;
  }

  /** By session id: 404 without a fulfilled purchase of a file, 410 once the entitlement ended. */
  async bySession(sessionId: string): Promise<PurchasedFile> {
    const order = SESSION_ID_PATTERN.test(sessionId)
      ? await findOrderBySession(this.deps.db(), this.deps.keys.hash("checkout-session", sessionId))
      : undefined;
    const entitlement = order?.entitlement;
    if (!order || !entitlement)
      throw new ApiProblem(
        "not-found",
        "There is no fulfilled purchase with this session id; poll the session until delivery.state is fulfilled.",
      );
    return this.#fileFor(
      entitlement,
      () => new ApiProblem("not-found", "This purchase is a fee: there is no file to download."),
    );
  }

  /**
   * By e-mailed link: any link that does not verify, has expired or names no entitlement is the
   * same 410 `link-invalid`, so the answer reveals nothing; an entitlement that ended is 410
   * `entitlement-ended`. The signature is checked before the database is read.
   */
  async byToken(token: string): Promise<PurchasedFile> {
    const check = verifyDownloadToken(this.deps.secrets, token, this.deps.now());
    const invalid = () =>
      new ApiProblem(
        "link-invalid",
        "This download link is not valid: it expired, was altered, or was never issued. Use the session's download URL, or ask for a new link.",
      );
    if (!check.ok) throw invalid();
    const entitlement = await findEntitlement(this.deps.db(), check.entitlementId);
    if (!entitlement) throw invalid();
    return this.#fileFor(entitlement, invalid);
  }

  #fileFor(entitlement: EntitlementRow, noFile: () => ApiProblem): PurchasedFile {
    const product = this.deps.catalogue.any(entitlement.product_id);
    const path = product ? this.deps.catalogue.filePath(product) : null;
    const filename = product ? this.deps.catalogue.fileName(product) : null;
    if (!product || !path || !filename || !product.data.file_type) throw noFile();
    if (!isEntitlementActive(entitlement, this.deps.now())) throw entitlementEnded(entitlement);
    return { path, type: product.data.file_type, filename };
  }

  /** An absolute e-mailed link for an entitlement, valid 7 days from `sentAt`. */
  linkFor(entitlementId: string, sentAt: Date): { url: string; expiresAt: Date } {
    const expiresAt = new Date(sentAt.getTime() + DOWNLOAD_LINK_TTL_MS);
    return {
      url: `${this.deps.siteUrl}/api/v1/downloads/${signDownloadToken(this.deps.secrets.current, entitlementId, expiresAt)}`,
      expiresAt,
    };
  }
}
