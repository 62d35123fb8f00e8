import { absolute } from "../../../src/lib/urls.ts";
import type { Sql } from "../../db/sql.ts";
import type { MailParagraph } from "../../mail/compose.ts";
import type { LookupKeys } from "../../platform/credentials/lookup-keys.ts";
import type { SecretRing } from "../../platform/secret-ring.ts";
import { issuedPublicId, LINK_TTL_MS, type LinkPurpose, signMonitorLink } from "../keys.ts";
import type { MonitorRow } from "../sql/monitors.ts";

export interface MonitorMailDeps {
  db: () => Sql;
  secrets: SecretRing;
  keys: LookupKeys;
  docsUrl: string;
  siteUrl: string;
  serviceName: string;
  contactEmail: string;
  freeSites: () => number;
}

/** What the monitors' e-mails share: the signature, the signed links, and the paragraphs that carry them. */
export function monitorMailParts(deps: MonitorMailDeps) {
  const link = (purpose: LinkPurpose, monitor: MonitorRow, expiresAt: Date) =>
    absolute(
      deps.docsUrl,
      `/monitors/${purpose}/${signMonitorLink(deps.secrets.current, purpose, monitor.id, expiresAt)}`,
    );
  return {
    signature: `${deps.serviceName} · ${deps.siteUrl} · questions: ${deps.contactEmail}`,
    /** A confirmation link lasts as long as the request it confirms (a week from when it was asked). */
    confirmUrl: (monitor: MonitorRow) =>
      link("confirm", monitor, new Date(new Date(monitor.created_at).getTime() + LINK_TTL_MS.confirm)),
    unsubscribeUrl: (monitor: MonitorRow, sentAt: Date) =>
      link("unsubscribe", monitor, new Date(sentAt.getTime() + LINK_TTL_MS.unsubscribe)),
    unsubscribe: (monitor: MonitorRow, url: string): MailParagraph => ({
      text: `To stop watching ${monitor.host} and get no more e-mail about it:`,
      link: { label: "Unsubscribe", url },
    }),
    /** The monitor's page; nothing once its public id was issued under a retired secret. */
    page(monitor: MonitorRow): MailParagraph[] {
      const publicId = issuedPublicId(deps.secrets, monitor.id, monitor.key_hash);
      if (!publicId) return [];
      return [
        {
          text: `Its history, the score over time and the badge to embed are on the monitor's page (keep the link private: it is the key to the page):`,
          link: { label: `Monitor for ${monitor.host}`, url: absolute(deps.docsUrl, `/monitors/${publicId}`) },
        },
      ];
    },
  };
}
