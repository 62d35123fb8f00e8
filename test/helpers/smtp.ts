import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** The next `count` messages are refused with a temporary error (451). */
  refuseNext(count: number): void;
  /** Every message to this address is refused for good at RCPT TO (550: no such mailbox), as a bounce. */
  refuseRecipient(address: string): void;
  /** Messages to this address are accepted again (the mailbox is back). */
  acceptRecipient(address: string): void;
  close(): Promise<void>;
}

/** A real SMTP server (smtp-server) on loopback that keeps what it receives. */
/** On `port` when given (a server that comes back where it was), else on any free port. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const unknownMailboxes = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!unknownMailboxes.has(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusals > 0) {
          refusals--;
          callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          return;
        }
        received.push({
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.server.address();
  if (typeof address !== "object" || !address) throw new Error("the SMTP server did not start");
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    refuseNext: (count) => (refusals = count),
    refuseRecipient: (address) => void unknownMailboxes.add(address.toLowerCase()),
    acceptRecipient: (address) => void unknownMailboxes.delete(address.toLowerCase()),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The decoded body of one MIME part (`text/plain` or `text/html`) of a raw message. */
export function mimePart(raw: string, type: "text/plain" | "text/html"): string {
  const start = raw.search(new RegExp(`Content-Type: ${type.replace("/", "\\/")}`, "i"));
  if (start < 0) return "";
  const part = raw.slice(start);
  const headerEnd = part.search(/\r?\n\r?\n/);
  const headers = part.slice(0, headerEnd);
  const body =
    part
      .slice(headerEnd)
      .replace(/^\r?\n\r?\n/, "")
      .split(/\r?\n--/)[0] ?? "";
  if (/Content-Transfer-Encoding: base64/i.test(headers))
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}
