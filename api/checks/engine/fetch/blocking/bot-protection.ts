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
}

interface Fingerprint extends ProtectionPage {
  header?: { name: string; value: RegExp };
  body?: RegExp;
}

/**
 * Marks each service documents for its own challenge and block responses, or that its pages always carry. A marker
 * must be specific to the service: a page that merely mentions a CAPTCHA is not a challenge. (The is-antibot package
 * keeps a longer list, but it pulls in jsdom and a native regex engine for what a dozen patterns do here.)
 */
const FINGERPRINTS: readonly Fingerprint[] = [
  // https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response/
  { vendor: "Cloudflare", kind: "challenge", header: { name: "cf-mitigated", value: /challenge/i } },
  { vendor: "Cloudflare", kind: "challenge", body: /window\._cf_chl_opt|\/cdn-cgi\/challenge-platform\// },
  {
    vendor: "Cloudflare",
    kind: "block",
    body: /<title>Attention Required! \| Cloudflare<\/title>|Sorry, you have been blocked|id="cf-error-details"[\s\S]*?Error (?:1006|1007|1008|1009|1010|1020)\b/,
  },
  // https://vercel.com/docs/vercel-firewall/firewall-observability (x-vercel-mitigated: challenge | deny)
  { vendor: "Vercel", kind: "challenge", header: { name: "x-vercel-mitigated", value: /challenge|deny/i } },
  // https://docs.aws.amazon.com/waf/latest/developerguide/waf-captcha-and-challenge-how-it-works.html
  { vendor: "AWS WAF", kind: "challenge", header: { name: "x-amzn-waf-action", value: /challenge|captcha/i } },
  { vendor: "DataDome", kind: "challenge", body: /geo\.captcha-delivery\.com|ct\.captcha-delivery\.com/ },
  { vendor: "HUMAN (PerimeterX)", kind: "challenge", body: /window\._pxAppId|id="px-captcha"/ },
  { vendor: "Imperva", kind: "block", body: /Incapsula incident ID|\/_Incapsula_Resource\?/ },
  { vendor: "Akamai", kind: "block", body: /<TITLE>Access Denied<\/TITLE>[\s\S]*?errors\.edgesuite\.net/i },
  { vendor: "Sucuri", kind: "block", header: { name: "x-sucuri-block", value: /./ } },
  // Anubis and go-away: proof-of-work walls self-hosted against AI scrapers, served with 200.
  { vendor: "Anubis", kind: "challenge", body: /id="anubis_challenge"|\/\.within\.website\/x\/cmd\/anubis\// },
  { vendor: "go-away", kind: "challenge", body: /\/git\/go-away\/cmd\/go-away\/assets\// },
  { vendor: "DDoS-Guard", kind: "challenge", body: /\/\.well-known\/ddos-guard\// },
];

/** Challenge and block pages are small; a large document that quotes a marker is still the document. */
const PAGE_LIMIT = 64 * 1024;

function looksLikeHtml(answer: Answer): boolean {
  return /html/i.test(answer.headers["content-type"] ?? "") || /^\s*<(!doctype|html)/i.test(answer.text);
}

/** The bot-protection page this answer is, or null when it is not one. */
export function recognizeProtection(answer: Answer): ProtectionPage | null {
  const page = looksLikeHtml(answer) && answer.text.length <= PAGE_LIMIT ? answer.text : "";
  const found = FINGERPRINTS.find((fingerprint) => {
    if (fingerprint.header !== undefined) {
      const value = answer.headers[fingerprint.header.name];
      return value !== undefined && fingerprint.header.value.test(value);
    }
    return fingerprint.body !== undefined && page !== "" && fingerprint.body.test(page);
  });
  return found === undefined ? null : { vendor: found.vendor, kind: found.kind };
}

/** "403 text/html (a Cloudflare challenge page)" */
export function describeProtectedAnswer(answer: Answer): string {
  const type = (answer.headers["content-type"] ?? "").split(";")[0]?.trim() || "no Content-Type";
  const page = recognizeProtection(answer);
  return `${answer.status} ${type}${page === null ? "" : ` (a ${page.vendor} ${page.kind} page)`}`;
}
