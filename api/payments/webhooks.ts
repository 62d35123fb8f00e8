import type { Sql, SqlStatement } from "../db/sql.ts";
import type { Logger } from "../platform/log.ts";
import { hasPaymentEvent, recordPaymentEventStatement } from "./events-sql.ts";
import type { PaymentEvent } from "./stripe-objects.ts";

/**
 * What a handler wants done for an event: statements committed in one batch together with the
 * event's record (so an event is recorded exactly when its effect is), and work for after the
 * commit (a provider call such as a refund) whose failure is retried elsewhere, never by Stripe.
 */
export interface WebhookEffect {
  statements: SqlStatement[];
  afterCommit?: () => Promise<void>;
}

/**
 * Handles one event type. It parses `event.data.object` with zod, decides whether the event is
 * its feature's (by metadata), and answers `null` when it is not. Throwing makes the webhook
 * answer 5xx, so Stripe delivers the event again later.
 */
export type WebhookHandler = (event: PaymentEvent) => Promise<WebhookEffect | null>;

export interface WebhookReceipt {
  duplicate: boolean;
  handled: boolean;
}

/** Event type → the handlers that act on it, in order (api/wiring/webhook-table.ts is the one table). */
export type WebhookTable = Readonly<Record<string, readonly WebhookHandler[]>>;

/**
 * The payment-provider webhook as a dispatcher over one table of handlers by event type. Events are
 * deduplicated by id and may arrive in any order (https://docs.stripe.com/webhooks#handle-duplicate-events),
 * so handlers re-read the provider's current state rather than trusting the order of arrival.
 */
export class PaymentWebhooks {
  private readonly deps: { db: () => Sql; now: () => Date; log: Logger; table: WebhookTable };

  constructor(deps: { db: () => Sql; now: () => Date; log: Logger; table: WebhookTable }) {
    this.deps = deps;
  }

  async receive(event: PaymentEvent): Promise<WebhookReceipt> {
    const db = this.deps.db();
    // A cheap early answer for a redelivery; the record's primary key is what really decides.
    if (await hasPaymentEvent(db, event.id)) return { duplicate: true, handled: false };
    const handlers = Object.hasOwn(this.deps.table, event.type) ? (this.deps.table[event.type] ?? []) : [];
    const effects: WebhookEffect[] = [];
    for (const handler of handlers) {
      const effect = await handler(event);
      if (effect) effects.push(effect);
    }
    const at = this.deps.now().toISOString();
    await db.batch(
      [recordPaymentEventStatement(event, at), ...effects.flatMap((effect) => effect.statements)],
      "write",
    );
    for (const effect of effects) {
      try {
        await effect.afterCommit?.();
      } catch (error) {
        this.deps.log.warn(
          { event_id: event.id, type: event.type, err: error instanceof Error ? error.message : String(error) },
          "webhook follow-up failed; it is retried later",
        );
      }
    }
    return { duplicate: false, handled: effects.length > 0 };
  }
}
