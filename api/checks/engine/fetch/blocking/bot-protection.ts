/** What the site answered, as far as telling a bot-protection page apart from the document needs it. */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
}

/** A page a bot-protection service serves instead of the document. */
export interface ProtectionPage {
  /** The service that served it, e.g. "Cloudflare". */
  vendor: string;
  /** A challenge a browser may pass by running JavaScript, or a block page no client gets past. */
  kind: "challenge" | "block";
  /**
   * The answer is the vendor's response as the vendor serves it: a header it sets only on its mitigations, a page only
   * its challenge serves (a proof-of-work wall, served with 200 by design), or its page with a refusal status (403,
   * 429, 503). False for the same marks on another answer (a 200 that quotes them, a sensor script the vendor injects
   * into every page it serves): such an answer is blocking only when a browser gets a different one.
   */
  certain: boolean;
}

interface Fingerprint extends Omit<ProtectionPage, "certain"> {
  header?: { name: string; value: RegExp };
  body?: RegExp;
  /** The mark is the vendor's response whatever the status; otherwise only with a refusal status. */
  anyStatus?: true;
}

/** The statuses vendors serve their challenge and block pages with. */
const REFUSAL_STATUSES = new Set([403, 429, 503]);

/**
 * Marks each service documents for its own challenge and block responses. A mark must be specific to the response,
 * not to the vendor: Cloudflare's JavaScript Detections (`/cdn-cgi/challenge-platform/scripts/jsd/main.js`, injected
 * into every page with Bot Fight Mode on), HUMAN's `_pxAppId` sensor and Imperva's `_Incapsula_Resource` script sit on
 * ordinary pages, and a page may quote "Sorry, you have been blocked". (The is-antibot package keeps a longer list,
 * but it pulls in jsdom and a native regex engine for what a dozen patterns do here.)
 */
const FINGERPRINTS: readonly Fingerprint[] = [
  // https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/
  { vendor: "Cloudflare", kind: "challenge", header: { name: "cf-mitigated", value: /challenge/i }, anyStatus: true },
  // The challenge page's options object and orchestration script (never the jsd detection script beside them).
  {
    vendor: "Cloudflare",
    kind: "challenge",
    body: /window\._cf_chl_opt\b|\/cdn-cgi\/challenge-platform\/(?:h\/[a-z]\/)?orchestrate\//,
  },
  {
    vendor: "Cloudflare",
    kind: "block",
    body: /<title>Attention Required! \| Cloudflare<\/title>|Sorry, you have been blocked|id="cf-error-details"[\s\S]*?Error (?:1006|1007|1008|1009|1010|1020)\b/,
  },
  // https://vercel.com/docs/vercel-firewall/firewall-observability (x-vercel-mitigated: challenge | deny)
  {
    vendor: "Vercel",
    kind: "challenge",
    header: { name: "x-vercel-mitigated", value: /challenge|deny/i },
    anyStatus: true,
  },
  // https://docs.aws.amazon.com/waf/latest/developerguide/waf-captcha-and-challenge-how-it-works.html
  {
    vendor: "AWS WAF",
    kind: "challenge",
    header: { name: "x-amzn-waf-action", value: /challenge|captcha/i },
    anyStatus: true,
  },
  { vendor: "DataDome", kind: "challenge", body: /geo\.captcha-delivery\.com|ct\.captcha-delivery\.com/ },
  { vendor: "HUMAN (PerimeterX)", kind: "challenge", body: /window\._pxAppId|id="px-captcha"/ },
  { vendor: "Imperva", kind: "block", body: /Incapsula incident ID|\/_Incapsula_Resource\?/ },
  { vendor: "Akamai", kind: "block", body: /<TITLE>Access Denied<\/TITLE>[\s\S]*?errors\.edgesuite\.net/i },
  { vendor: "Sucuri", kind: "block", header: { name: "x-sucuri-block", value: /./ }, anyStatus: true },
  // Anubis and go-away: proof-of-work walls self-hosted against AI scrapers, served with 200 by design.
  {
    vendor: "Anubis",
    kind: "challenge",
    body: /id="anubis_challenge"|\/\.within\.website\/x\/cmd\/anubis\//,
    anyStatus: true,
  },
  { vendor: "go-away", kind: "challenge", body: /\/git\/go-away\/cmd\/go-away\/assets\//, anyStatus: true },
  { vendor: "DDoS-Guard", kind: "challenge", body: /\/\.well-known\/ddos-guard\// },
];

/** Challenge and block pages are small; a large document that quotes a marker is still the document. */
const PAGE_LIMIT = 64 * 1024;

function looksLikeHtml(answer: Answer): boolean {
  return /html/i.test(answer.headers["content-type"] ?? "") || /^\s*<(!doctype|html)/i.test(answer.text);
}

/** The bot-protection page this answer is or looks like (see `ProtectionPage.certain`), or null. */
export function recognizeProtection(answer: Answer): ProtectionPage | null {
  const page = looksLikeHtml(answer) && answer.text.length <= PAGE_LIMIT ? answer.text : "";
  const found = FINGERPRINTS.find((fingerprint) => {
    if (fingerprint.header !== undefined) {
      const value = answer.headers[fingerprint.header.name];
      return value !== undefined && fingerprint.header.value.test(value);
    }
    return fingerprint.body !== undefined && page !== "" && fingerprint.body.test(page);
  });
  if (found === undefined) return null;
  const certain = found.anyStatus === true || REFUSAL_STATUSES.has(answer.status);
  return { vendor: found.vendor, kind: found.kind, certain };
}

/** "403 text/html (a Cloudflare challenge page)", or "200 text/html (it reads like a Cloudflare block page)" */
export function describeProtectedAnswer(answer: Answer): string {
  const type = (answer.headers["content-type"] ?? "").split(";")[0]?.trim() || "no Content-Type";
  const page = recognizeProtection(answer);
  if (page === null) return `${answer.status} ${type}`;
  return `${answer.status} ${type} (${page.certain ? "a" : "it reads like a"} ${page.vendor} ${page.kind} page)`;
}
