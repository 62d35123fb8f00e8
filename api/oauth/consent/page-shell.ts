import { createHash } from "node:crypto";
import { escapeXml } from "../../../src/lib/xml-text.ts";

/**
 * The authorization server's pages (consent, errors) are whole documents made here, with nothing
 * from the build and nothing remote: one inline stylesheet allowed by its hash, no script at all,
 * and forms that work without JavaScript. Their policy is stricter than the site's: no framing
 * (clickjacking a consent button is the classic attack), no base, forms only to this site and, on
 * the consent page, to the one redirect URI already validated.
 */
const STYLE = `
:root{color-scheme:light dark;--fg:#1a1a1a;--bg:#fff;--muted:#555;--line:#c8c8c8;--warn:#7a4b00;--warn-bg:#fff4dc;--err:#8a1010;--err-bg:#fdeaea;--accent:#0b57d0}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#151515;--muted:#b5b5b5;--line:#555;--warn:#ffd68a;--warn-bg:#3a2c10;--err:#ffb4b4;--err-bg:#3d1515;--accent:#8ab4f8}}
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.35rem 1rem;margin:0}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
ul{padding-left:1.25rem}
code{font-size:.95em;overflow-wrap:anywhere}
.note{color:var(--muted)}
.alert{border:2px solid currentColor;border-radius:.4rem;padding:.75rem 1rem;margin:1rem 0}
.warning{color:var(--warn);background:var(--warn-bg)}
.error{color:var(--err);background:var(--err-bg)}
fieldset{border:1px solid var(--line);border-radius:.4rem;margin:1rem 0;padding:.75rem 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;font-weight:600;margin-top:.75rem}
.choice label{display:inline;font-weight:400;margin:0}
.choice{margin:.5rem 0}
input[type=text],input[type=password],select{display:block;width:100%;font:inherit;padding:.5rem;margin-top:.25rem;border:1px solid var(--line);border-radius:.3rem;background:var(--bg);color:var(--fg)}
.hint{display:block;font-weight:400;color:var(--muted);font-size:.9rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.5rem}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.3rem;border:2px solid var(--accent);cursor:pointer;min-height:2.75rem}
button.allow{background:var(--accent);color:var(--bg)}
button.deny{background:transparent;color:var(--fg)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.hint.error{color:var(--err);font-weight:600}
.secret{-webkit-text-security:disc}
`;

const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

/** The policy of a page: nothing loads but its own stylesheet; forms go to this site and `formTargets`. */
export function pagePolicy(formTargets: readonly string[] = []): string {
  const formAction = ["'self'", ...formTargets].join(" ");
  return `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

/** Headers every page of the authorization server carries. */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": pagePolicy(formTargets),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
  };
}

export const html = (value: string): string => escapeXml(value);

/** A whole document: `body` is markup made with `html()` around every value from outside. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
