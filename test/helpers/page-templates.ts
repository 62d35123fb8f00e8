/**
 * One URL for every page template the site has, for the audits that must cover them all (axe,
 * screenshots, fitting a phone). A new template adds its line here.
 */
export interface PageTemplate {
  /** Names the screenshot: `test-results/screenshots/template-<name>-<width>.png`. */
  name: string;
  path: string;
  status?: number;
  /** A template reached by a form: the button (by name) pressed on `path` to arrive at it. */
  submit?: RegExp;
}

export const PAGE_TEMPLATES: readonly PageTemplate[] = [
  { name: "home", path: "/" },
  { name: "docs-home", path: "/docs" },
  { name: "doc", path: "/docs/reference/errors" },
  { name: "doc-archived", path: "/archive/docs/reference--rate-limits/reference--rate-limits-2026-10-01" },
  { name: "policy", path: "/policies/privacy" },
  { name: "policy-archived", path: "/archive/policies/privacy/privacy-2026-09-15" },
  { name: "articles", path: "/articles" },
  { name: "article", path: "/articles/why-scanners-disagree" },
  { name: "record", path: "/records/our-readiness" },
  { name: "resources", path: "/resources" },
  { name: "store", path: "/store" },
  // Without a payment provider the buy form's answer is the page explaining why the checkout could not start.
  { name: "store-buy", path: "/store", submit: /^Buy /, status: 503 },
  { name: "store-return", path: "/store/return", status: 404 },
  { name: "waitlist", path: "/waitlist" },
  { name: "checks", path: "/checks" },
  { name: "monitors", path: "/monitors" },
  { name: "monitor-link-invalid", path: "/monitors/confirm/no-such-link", status: 410 },
  { name: "monitor-missing", path: `/monitors/mon_${"x".repeat(43)}`, status: 404 },
  { name: "problems", path: "/problems" },
  { name: "problem", path: "/problems/not-found" },
  { name: "not-found", path: "/no-such-page", status: 404 },
];
