import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SqlStatement } from "../../db/sql.ts";
import { composeMail, type MailParagraph } from "../../mail/compose.ts";
import type { MailTemplate } from "../../mail/outbox.ts";
import { appendToQueuedMailStatement, mailQuota, queueMailStatement } from "../../mail/outbox-sql.ts";
import { LINK_TTL_MS } from "../keys.ts";
import { countActiveForEmail, findEmailMonitor, listPendingForEmail, type MonitorRow } from "../sql/monitors.ts";
import { type MonitorMailDeps, monitorMailParts } from "./parts.ts";
import { MONITOR_CONFIRM_MAIL, mailStopped, REQUEST_MAILS_PER_DAY } from "./rules.ts";

const DAY_MS = 86_400_000;
/** Sites one e-mail names as already watched (an address watches few; the rest of a flood is dropped). */
const NAMED_PER_MAIL = 20;

const RequestPayload = z.object({
  email: z.string(),
  /** The sites asked for while this e-mail waited to go: one the address already watches gets a note. */
  origins: z.array(z.string()).optional(),
  /** E-mails queued before requests shared one named a single site. */
  origin: z.string().optional(),
});

/**
 * What a request adds to its batch after the monitor: its site joins the e-mail still waiting to go
 * to that address, or a new one is queued if the address got fewer than REQUEST_MAILS_PER_DAY in the
 * last 24 hours. Whatever the request, the answer is the same 202: it says nothing of an address.
 */
export function requestMailStatements(email: string, origin: string, at: string): SqlStatement[] {
  const id = `mail_${randomUUID()}`;
  const since = new Date(Date.parse(at) - DAY_MS).toISOString();
  return [
    appendToQueuedMailStatement(MONITOR_CONFIRM_MAIL, email, "origins", origin, NAMED_PER_MAIL),
    queueMailStatement(
      {
        id,
        kind: MONITOR_CONFIRM_MAIL,
        dedupe_key: `${MONITOR_CONFIRM_MAIL}:${email}:${id}`,
        recipient: email,
        payload: { email, origins: [origin] },
      },
      at,
      mailQuota(MONITOR_CONFIRM_MAIL, email, since, REQUEST_MAILS_PER_DAY),
    ),
  ];
}

const every = (monitor: MonitorRow) => (monitor.frequency === "daily" ? "every day" : "every week");

/**
 * The e-mail requests send, rendered when it goes from what the database holds then: every site
 * still waiting for this address's confirmation, each with its own link, and a note for each site
 * asked for that the address already watches. Nothing when there is neither any more.
 */
export function requestMailTemplate(deps: MonitorMailDeps): MailTemplate {
  const parts = monitorMailParts(deps);
  return async (payload, sentAt) => {
    const { email, origins = [], origin } = RequestPayload.parse(payload);
    const db = deps.db();
    const stopped = await mailStopped(db, email, "requests", sentAt);
    if (stopped) return stopped;
    const pending = await listPendingForEmail(
      db,
      email,
      new Date(sentAt.getTime() - LINK_TTL_MS.confirm).toISOString(),
    );
    const named = [...new Set([...origins, ...(origin ? [origin] : [])])];
    const watched = (await Promise.all(named.map((site) => findEmailMonitor(db, email, site)))).filter(
      (monitor): monitor is MonitorRow => monitor?.state === "active",
    );
    if (pending.length === 0 && watched.length === 0) return null;
    const paragraphs: MailParagraph[] = [];
    const [only] = pending;
    if (pending.length === 1 && only) {
      paragraphs.push({
        text: `Someone (we hope you) asked to watch the agent readiness of ${only.host} for this address: a check ${every(only)}, its history kept, and an e-mail when the site gets worse. Nothing is checked until you confirm:`,
        link: { label: `Confirm watching ${only.host}`, url: parts.confirmUrl(only) },
      });
    } else if (pending.length > 1) {
      paragraphs.push({
        text: `Someone (we hope you) asked to watch the agent readiness of ${pending.length} sites for this address: each checked daily or weekly, its history kept, and an e-mail when it gets worse. Nothing is checked until you confirm it:`,
      });
      for (const monitor of pending)
        paragraphs.push({
          text: `${monitor.host}, checked ${every(monitor)}:`,
          link: { label: `Confirm watching ${monitor.host}`, url: parts.confirmUrl(monitor) },
        });
    }
    if (pending.length > 0) {
      paragraphs.push({
        text: `The ${pending.length === 1 ? "link works" : "links work"} for 7 days. If you did not ask, ignore this e-mail: nothing happens, and the request is forgotten. An address gets at most ${REQUEST_MAILS_PER_DAY} of these e-mails a day, each listing every site still waiting for its confirmation.`,
      });
      const active = await countActiveForEmail(db, email);
      if (active >= deps.freeSites())
        paragraphs.push({
          text: `This address already watches ${active} sites, the free plan's limit: stop one (the unsubscribe link in its e-mails) before you confirm.`,
        });
    }
    for (const monitor of watched)
      paragraphs.push(
        {
          text: `Someone asked to watch ${monitor.host} for this address, which already watches it ${monitor.frequency}. Nothing changed.`,
        },
        ...parts.page(monitor),
        parts.unsubscribe(monitor, parts.unsubscribeUrl(monitor, sentAt)),
      );
    return composeMail(subjectOf(pending, watched), paragraphs, parts.signature);
  };
}

function subjectOf(pending: MonitorRow[], watched: MonitorRow[]): string {
  const [first] = pending;
  if (pending.length === 1 && first) return `Confirm: watch ${first.host}`;
  if (pending.length > 1) return `Confirm: watch ${pending.length} sites`;
  const [known] = watched;
  return watched.length === 1 && known
    ? `You already watch ${known.host}`
    : `You already watch these ${watched.length} sites`;
}
