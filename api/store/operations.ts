import { defineOperation } from "../platform/operations/definition.ts";
import { ApiProblem } from "../platform/problem.ts";
import { SESSION_ID_PATTERN, sessionNotFound } from "./purchase-sessions.ts";
import type { StoreServices } from "./services.ts";

/**
 * The optional `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): a
 * retried checkout with the same key and body gets the same session instead of a second one.
 */
function idempotencyKeyOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(header))
    throw new ApiProblem("bad-request", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  return header;
}

/** The store's operations: hosted checkout, the purchase session, and the download by session or signed link. */
export function storeOperations(store: StoreServices) {
  return {
    checkout: defineOperation("startStoreCheckout", {
      // An unknown item is 404 whether or not payments are configured.
      async find({ params }) {
        const id = params.id ?? "";
        if (!store.catalogue.published(id))
          throw new ApiProblem("not-found", `There is no product ${id} in the store.`);
        return id;
      },
      run: ({ found, body, headers }) =>
        store.checkout.start(found, body ?? {}, idempotencyKeyOf(headers.get("idempotency-key"))),
    }),
    session: defineOperation("getPurchaseSession", {
      // A session id of the wrong form is 404 without asking the provider, configured or not.
      async find({ params }) {
        const id = params.session_id ?? "";
        if (!SESSION_ID_PATTERN.test(id)) throw sessionNotFound();
        return id;
      },
      run: ({ found }) => store.sessions.lookup(found),
    }),
    downloadBySession: defineOperation("downloadPurchase", {
      run: ({ params }) => store.downloads.bySession(params.session_id ?? ""),
    }),
    downloadByLink: defineOperation("downloadByLink", {
      run: ({ params }) => store.downloads.byToken(params.token ?? ""),
    }),
  };
}

export type StoreOperations = ReturnType<typeof storeOperations>;
