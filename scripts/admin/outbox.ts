import { defineCommand } from "citty";
import { listOutbox, type MailState, makeMailDueNow } from "../../api/mail/outbox-sql.ts";
import { type AdminContext, AdminError, printRows, withDatabase } from "./context.ts";
import { say, sayJson } from "./terminal.ts";

/** Loaded only when used: the payment SDK and mail libraries would slow every other command's start. */
async function commerceServices(context: AdminContext) {
  const { commerceServices: build } = await import("./commerce.ts");
  return build(context);
}

const STATES: readonly MailState[] = ["queued", "sending", "sent", "failed", "cancelled"];

export const outboxCommand = defineCommand({
  meta: {
    name: "outbox",
    description: "The e-mail outbox: what waits to be sent (without SMTP_URL, everything waits here), and sending it.",
  },
  subCommands: {
    list: defineCommand({
      meta: {
        name: "list",
        description:
          "Messages, newest first; queued ones are printed in full as they would be sent now (links included).",
      },
      args: {
        state: { type: "string", description: `Only this state: ${STATES.join(", ")}` },
        limit: { type: "string", description: "How many", default: "50" },
        brief: { type: "boolean", description: "The table only, without the messages" },
        json: { type: "boolean", description: "Print JSON" },
      },
      run: ({ args }) =>
        withDatabase(async (context) => {
          const state = STATES.find((candidate) => candidate === args.state);
          if (args.state && !state) throw new AdminError(`Unknown state ${args.state}; states: ${STATES.join(", ")}`);
          const rows = await listOutbox(context.client, {
            limit: Number(args.limit) || 50,
            ...(state ? { state } : {}),
          });
          const { mail } = await commerceServices(context);
          const now = new Date();
          const messages = args.brief
            ? []
            : await Promise.all(
                rows
                  .filter((row) => row.state === "queued")
                  .map(async (row) => ({ id: row.id, message: await mail.render(row, now) })),
              );
          if (args.json) {
            sayJson({ data: rows, messages });
            return;
          }
          printRows(
            rows.map((row) => ({
              id: row.id,
              kind: row.kind,
              to: row.recipient,
              state: row.state,
              attempts: row.attempts,
              next_attempt_at: row.state === "queued" ? row.next_attempt_at : null,
              created_at: row.created_at,
              last_error: row.last_error,
            })),
            false,
          );
          for (const { id, message } of messages) {
            say(`\n--- ${id} ---`);
            say(
              !message
                ? "(nothing to send any more: it will be cancelled)"
                : "skipped" in message
                  ? `(it will be cancelled: ${message.skipped})`
                  : `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}`,
            );
          }
        }),
    }),
    send: defineCommand({
      meta: {
        name: "send",
        description: "Send what is due now, once (needs SMTP_URL); the server does this every 2 seconds.",
      },
      run: () =>
        withDatabase(async (context) => {
          const { mail } = await commerceServices(context);
          if (!mail.configured)
            throw new AdminError("SMTP_URL is not set: messages stay in the outbox (see `outbox list`).");
          const report = await mail.deliverDue(100);
          say(
            `Sent ${report.sent}, retrying ${report.retried}, failed ${report.failed}, cancelled ${report.cancelled}.`,
          );
        }),
    }),
    retry: defineCommand({
      meta: {
        name: "retry",
        description:
          "After a mail outage: make every waiting message due now rather than at its backoff time; the running servers send them within seconds, each once.",
      },
      args: {
        failed: {
          type: "boolean",
          description: "Also give messages that used up their attempts (state failed) a fresh round",
        },
      },
      run: ({ args }) =>
        withDatabase(async (context) => {
          const count = await makeMailDueNow(context.client, new Date().toISOString(), Boolean(args.failed));
          say(`${count} message${count === 1 ? "" : "s"} due now.`);
        }),
    }),
  },
});
