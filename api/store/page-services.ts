import type { FormResult, PageServices } from "../../src/lib/page-services.ts";
import type { AppServices } from "../app-services.ts";
import { requireAvailable } from "../platform/availability.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";

type FormRunner = <T>(action: () => Promise<T>) => Promise<FormResult<T>>;

/**
 * The store's part of the page services: the buy button (a plain form post) and the checkout
 * return page, with the same checks and limits as the JSON API.
 */
export function storePageServices(
  services: AppServices,
  address: string,
  asForm: FormRunner,
): Pick<PageServices, "startCheckout" | "purchaseSession"> {
  const service = services.content.service;
  return {
    startCheckout: (productId) =>
      asForm(async () => {
        await requireAvailable("startStoreCheckout", services.monitor, service);
        await enforceRateLimit(services.limiter, "store-checkout", address);
        const started = await services.store.checkout.start(productId, {});
        return { url: started.url };
      }),
    purchaseSession: (sessionId) =>
      asForm(async () => {
        await requireAvailable("getPurchaseSession", services.monitor, service);
        await enforceRateLimit(services.limiter, "session-lookup", address);
        return services.store.sessions.lookup(sessionId);
      }),
  };
}
