import type { Sql } from "../../db/sql.ts";
import { REFUSED_FOR_GOOD, type SkippedMail } from "../../mail/outbox.ts";
import { refusedInARow } from "../../mail/outbox-sql.ts";

/** A request's e-mail: the sites an address was asked to watch, with a link to confirm each. */
export const MONITOR_CONFIRM_MAIL = "monitor-confirm";
/** A run's e-mail: the site got worse. */
export const MONITOR_ALERT_MAIL = "monitor-alert";

/**
 * E-mails that anyone's request sends to an address, at most this many a day (a rolling 24 hours):
 * each lists every site still waiting for that address's confirmation, so asking again and again,
 * from any number of clients and for any number of sites, cannot fill someone's inbox.
 */
export const REQUEST_MAILS_PER_DAY = 3;
/** Requests one address may have waiting for confirmation; more are not recorded (nor mailed). */
export const PENDING_PER_ADDRESS = 10;

/**
 * Refusals for good (a 5xx reply to RCPT or DATA) in a row that stop a stream of mail to an address,
 * for as long as the last of them is this recent. One refusal is not enough: a mail server that
 * takes a flood of requested e-mails for spam refuses the next ones too, and a stranger's requests
 * must not cost the owner their alerts.
 */
export const REFUSALS_TO_STOP = 3;
const REFUSALS_REMEMBERED_MS = 30 * 86_400_000;

/**
 * Two streams, counted apart: what requests send (anyone can trigger it) and what a confirmed
 * monitor's runs send. Neither ever removes a monitor or its history.
 */
const STREAMS = {
  requests: { kinds: [MONITOR_CONFIRM_MAIL], noun: "requested e-mails" },
  alerts: { kinds: [MONITOR_ALERT_MAIL], noun: "alerts" },
} as const;
export type MonitorMailStream = keyof typeof STREAMS;

/**
 * Whether `recipient` gets no more mail of this stream now: it refused the last REFUSALS_TO_STOP
 * for good, the latest under 30 days ago, and nothing has reached it since. A message that reaches
 * it again (the owner asks to watch a site again) lifts it.
 */
export async function mailStopped(
  db: Sql,
  recipient: string,
  stream: MonitorMailStream,
  now: Date,
): Promise<SkippedMail | null> {
  const stopped = await refusedInARow(db, {
    recipient,
    kinds: STREAMS[stream].kinds,
    times: REFUSALS_TO_STOP,
    since: new Date(now.getTime() - REFUSALS_REMEMBERED_MS).toISOString(),
    refusedPrefix: REFUSED_FOR_GOOD,
  });
  return stopped
    ? { skipped: `the address refused the last ${REFUSALS_TO_STOP} ${STREAMS[stream].noun} for good` }
    : null;
}
