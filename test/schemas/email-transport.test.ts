import fc from "fast-check";
import addressparser from "nodemailer/lib/addressparser";
import MimeNode from "nodemailer/lib/mime-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueMailStatement } from "../../api/mail/outbox-sql.ts";
import { expectProblem } from "../helpers/agents.ts";
import { EMAIL_FIELDS, verdict } from "../helpers/request-schemas.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "../helpers/smtp.ts";
import { createStoreApp, type StoreTestApp } from "../helpers/store.ts";

/**
 * Where nodemailer would send a message addressed `to: address`: the recipients of the envelope it
 * builds (api/mail/transport.ts hands it exactly that), after its own parsing and normalising.
 */
function envelopeOf(address: string): string[] {
  const message = new MimeNode("text/plain");
  message.setHeader("to", address);
  return message.getEnvelope().to;
}

/** The address as the transport sends it, if it sends it to exactly this one mailbox; else why not. */
function transportReading(address: string): string {
  const parsed = addressparser(address);
  const [only] = parsed;
  if (parsed.length !== 1 || !only || !("address" in only)) return `parsed as ${JSON.stringify(parsed)}`;
  if (only.name !== "" || only.address !== address) return `parsed as ${JSON.stringify(parsed)}`;
  const envelope = envelopeOf(address);
  if (envelope.length !== 1) return `sent to ${JSON.stringify(envelope)}`;
  return envelope[0] ?? "";
}

/** Equal as mailboxes: the same local part, the same domain in any case (RFC 5321 §2.4: DNS ignores case). */
function sameMailbox(sent: string, stored: string): boolean {
  const at = stored.lastIndexOf("@");
  return sent === `${stored.slice(0, at)}@${stored.slice(at + 1).toLowerCase()}`;
}

/** What the published pattern and the server accept, checked in every e-mail field. */
function acceptedEverywhere(address: string): boolean {
  const verdicts = Object.entries(EMAIL_FIELDS).map(([field, place]) => [field, verdict(...place(address))] as const);
  const distinct = new Set(verdicts.map(([, outcome]) => outcome));
  expect(distinct.size, `${JSON.stringify(address)}: ${JSON.stringify(verdicts)}`).toBe(1);
  expect(distinct.has("they disagree")).toBe(false);
  return distinct.has("accepted");
}

const ATEXT = [..."abcxyzABCXYZ0189!#$%&'*+/=?^_`{|}~-"];
const HOSTILE = [
  ...'@.,;:<>()[]\\" \t\r\n\u0000\u001b\u007f\u0085\u00ad\u00a0\u200b\u200c\u200d\u200e\u200f\u202a\u202e\u2060\u2066\u2069\ufeffäöüéñßİı𝓪ＡＢ',
];
const piece = (alphabet: string[]) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 8 }).map((a) => a.join(""));
/** Addresses near the accepted shape: valid ones, and valid ones with a hostile character put in. */
const nearAddresses = fc
  .tuple(
    fc.array(piece(ATEXT), { minLength: 1, maxLength: 3 }),
    fc.array(piece([..."abcxyz019-"]), { minLength: 1, maxLength: 3 }),
    fc.constantFrom("com", "example", "io", "Museum", "xn--p1ai", "c0m", "a"),
    fc.option(fc.tuple(fc.constantFrom(...HOSTILE), fc.nat()), { freq: 2 }),
  )
  .map(([local, labels, top, hostile]) => {
    const address = `${local.join(".")}@${[...labels, top].join(".")}`;
    if (!hostile) return address;
    const [character, at] = hostile;
    const index = at % (address.length + 1);
    return address.slice(0, index) + character + address.slice(index);
  });

// EMAIL_FIELDS is all five e-mail fields of the request bodies: request-fields.test.ts proves the
// published schemas give the e-mail pattern to exactly those.
describe("every e-mail field accepts only what the mail transport sends to exactly as written", () => {
  it.each([
    ["a second recipient after a comma", "x,attacker@evil.example"],
    ["a display name before <", "a<b@example.com"],
    ["a comma in the domain", "a@b,c.com"],
    ["a group name before :", "a:b@example.com"],
    ["a comment in parentheses", "a(b)@example.com"],
    ["a quoted local part", '"a b"@example.com'],
    ["a leading dot (sent quoted)", ".a@example.com"],
    ["two dots in a row (sent quoted)", "a..b@example.com"],
    ["a zero-width space", "a\u200b@example.com"],
    ["a left-to-right mark", "a\u200e@example.com"],
    ["a right-to-left override", "a\u202e@example.com"],
    ["a left-to-right isolate", "a\u2066@example.com"],
    ["a soft hyphen in the domain (dropped by IDNA)", "a@exam\u00adple.com"],
    ["a Unicode domain (sent as xn--)", "zoe@exämple.com"],
    ["a Unicode local part (needs SMTPUTF8, its domain is rewritten)", "zoë@xn--exmple-cua.com"],
    ["full-width letters in the domain (mapped by IDNA)", "a@ｅｘａｍｐｌｅ.com"],
    ["a trailing dot", "a@example.com."],
  ])("refuses %s in every field", (_name, address) => {
    expect(acceptedEverywhere(address)).toBe(false);
  });

  it("sends every address it accepts to exactly that mailbox, through nodemailer's own parser (property)", () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearAddresses, (address) => {
        if (!acceptedEverywhere(address)) return;
        accepted++;
        const sent = transportReading(address);
        expect(sameMailbox(sent, address), `${JSON.stringify(address)} → ${sent}`).toBe(true);
      }),
      { numRuns: 3_000 },
    );
    // The generator must reach the accepted shape often, or the property proves little.
    expect(accepted).toBeGreaterThan(500);
  });

  it.each([
    "ada@example.com",
    "O'Brien+tag@Example.COM",
    "!#$%&'*+/=?^_`{|}~-@example.com",
    "first.last@sub.example-domain.io",
    "a@xn--exmple-cua.com",
  ])("accepts %s, and the transport reads and sends it unchanged", (address) => {
    expect(acceptedEverywhere(address)).toBe(true);
    expect(sameMailbox(transportReading(address), address)).toBe(true);
  });
});

describe("a purchase's delivery e-mail", () => {
  let store: StoreTestApp;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    store = await createStoreApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await store.close();
    await smtp.close();
  });

  it("goes to the address stored, envelope and header alike", async () => {
    const address = "O'Brien+tag&more@Example.COM";
    const sessionId = await store.buy("agent-readiness-checklist", { email: address });
    await store.fake.pay(sessionId);
    const stored = await store.t.services.database.client.queryOne("SELECT email FROM store_orders");
    expect(stored?.email).toBe(address);
    await store.t.services.mail.deliverDue();
    const [mail, ...more] = smtp.received;
    expect(more).toEqual([]);
    expect(mail?.to).toEqual(["O'Brien+tag&more@example.com"]);
    expect(mail?.raw).toMatch(/^To: O'Brien\+tag&more@example\.com\r?$/m);
    expect(mimePart(mail?.raw ?? "", "text/plain")).toContain("Download it here");
  });

  it("is never sent to a recipient stored before this rule that the transport would split", async () => {
    const before = smtp.received.length;
    await store.t.services.database.client.execute(
      queueMailStatement(
        {
          id: "mail_legacy_split",
          kind: "store-delivery",
          dedupe_key: "legacy-split",
          recipient: "x,attacker@evil.example",
          payload: { order_id: "ord_none" },
        },
        new Date(Date.now() - 1_000).toISOString(),
      ),
    );
    const report = await store.t.services.mail.deliverDue();
    expect(report.failed).toBe(1);
    expect(smtp.received.length).toBe(before);
    const row = await store.t.services.database.client.queryOne(
      "SELECT state FROM mail_outbox WHERE id = 'mail_legacy_split'",
    );
    expect(row?.state).toBe("failed");
  });

  it("is never sent for an address the transport would split: the checkout refuses it", async () => {
    const response = await store.checkout("agent-readiness-checklist", { email: "x,attacker@evil.example" });
    const problem = await expectProblem(response, 422, "validation-failed");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "#/email" })]);
  });
});
