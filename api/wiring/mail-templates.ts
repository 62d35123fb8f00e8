import { type CheckMailDeps, checkMailTemplates } from "../checks/mail.ts";
import type { MailTemplate } from "../mail/outbox.ts";
import type { MonitorMailDeps } from "../monitors/mail/parts.ts";
import { monitorMailTemplates } from "../monitors/mail/templates.ts";
import { type StoreMailDeps, storeMailTemplates } from "../store/mail.ts";

/**
 * Every kind of e-mail the outbox can hold, by kind. The server and the staff CLI both render rows
 * with this one registry, so a message either can queue the other can show and send.
 */
export function mailTemplates(deps: {
  store: StoreMailDeps;
  checks: CheckMailDeps;
  monitors: MonitorMailDeps;
}): Record<string, MailTemplate> {
  return {
    ...storeMailTemplates(deps.store),
    ...checkMailTemplates(deps.checks),
    ...monitorMailTemplates(deps.monitors),
  };
}
