import type { RenderedMail } from "./outbox.ts";

/** One paragraph of an e-mail, optionally ending with one link. */
export interface MailParagraph {
  text: string;
  link?: { label: string; url: string };
  /** Shown on a line of its own in a monospace box (a code to copy). */
  code?: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A date as people read it in an e-mail: `Sun, 22 Nov 2026`. */
export const mailDay = (iso: string) => new Date(iso).toUTCString().replace(/ \d\d:\d\d:\d\d GMT$/, "");

/** Paragraphs rendered as plain text and as HTML with the same content, then the signature. */
export function composeMail(subject: string, paragraphs: MailParagraph[], signature: string): RenderedMail {
  const text = [
    ...paragraphs.map((p) => [p.text, p.code ? `\n    ${p.code}` : "", p.link ? `\n${p.link.url}` : ""].join("")),
    signature,
  ].join("\n\n");
  const html = [
    '<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5">',
    ...paragraphs.map((p) => {
      const code = p.code
        ? `<br><code style="font-size: 1.2em; padding: .2em .4em; background: #f2f2f2">${escapeHtml(p.code)}</code>`
        : "";
      const link = p.link ? `<br><a href="${escapeHtml(p.link.url)}">${escapeHtml(p.link.label)}</a>` : "";
      return `<p>${escapeHtml(p.text)}${code}${link}</p>`;
    }),
    `<p>${escapeHtml(signature)}</p>`,
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
