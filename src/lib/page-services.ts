/**
 * What pages rendered on demand may ask of the running server, passed in `Astro.locals`. Pages
 * never import the server: they get these functions, and a page built without them (astro dev,
 * a static host) says the feature is unavailable.
 */
export interface PublicConfig {
  forms: { waitlist: boolean; agent_waitlist: boolean; agent_survey: boolean; agent_register: boolean };
  features: { store: boolean; checks: boolean; check_payments: boolean; credit_packs: boolean; mcp: boolean };
  privacy_version: string;
  legend_terms_version: string;
}

export interface FieldError {
  /** The form field's name. */
  field: string;
  message: string;
}

export type FormResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; message: string; errors: FieldError[] };

/** What the checkout return page shows besides the purchase itself. */
export interface PurchaseReceipt {
  /** The order number (`ord_…`): what to quote to staff. */
  order_number: string;
  /** Where the delivery e-mail went, masked (`s•••@example.com`); `null` when the buyer gave none. */
  sent_to: string | null;
  /** The payment provider's receipt page, when it has one. */
  receipt_url: string | null;
}

/** One check that differs between two runs of a monitor. */
export interface CheckChange {
  id: string;
  before: string | null;
  after: string | null;
  message: string;
}

type MonitorRun = import("../schemas/responses/monitors.ts").MonitorRun;

/** What a monitor's page shows: the monitor, its runs for the chart, and what changed between two of them. */
export interface MonitorPage {
  monitor: import("../schemas/responses/monitors.ts").MonitorView;
  /** The latest runs (up to 200), oldest first: the chart, the table and the comparison's choices. */
  runs: MonitorRun[];
  /** The two runs compared (the latest and the one before, unless chosen) and the checks that differ. */
  comparison: { from: MonitorRun; to: MonitorRun; changes: CheckChange[] } | null;
}

/** What an e-mailed monitor link is about, read without following it. */
export interface MonitorLinkPreview {
  domain: string;
  frequency: "daily" | "weekly";
  state: "pending" | "active" | "stopped";
}

export interface PageServices {
  config(): Promise<PublicConfig>;
  joinWaitlist(input: unknown): Promise<FormResult<{ legend: boolean }>>;
  /** Runs a readiness check; the page then redirects to the report. */
  runCheck(input: unknown): Promise<FormResult<{ id: string }>>;
  /** A report as the API shows it, or `null` when there is none with this id. */
  readReport(id: string): Promise<import("../schemas/responses/checks.ts").CheckReport | null>;
  redeemCode(id: string, code: string): Promise<FormResult<{ credits_remaining: number }>>;
  /** Starts a hosted checkout to unlock a report or buy a pack (form fields `purchase`, `email`); the page then redirects to `url`. */
  payForReport(id: string, input: unknown): Promise<FormResult<{ url: string }>>;
  /** The buyer is back from the hosted checkout: whether the provider says it was paid (the report is then unlocked). */
  confirmReportPayment(id: string, sessionId: string): Promise<"paid" | "pending" | "unknown">;
  /** Starts a hosted checkout for the store's buy button; the page then redirects to `url`. */
  startCheckout(productId: string): Promise<FormResult<{ url: string }>>;
  /** A purchase as `GET /api/v1/store/sessions/{session_id}` shows it (the checkout return page). */
  purchaseSession(sessionId: string): Promise<FormResult<import("../schemas/responses/store.ts").PurchaseSession>>;
  /** The order number, masked e-mail and receipt link of a purchase, or `null` before an order exists. */
  purchaseReceipt(sessionId: string): Promise<PurchaseReceipt | null>;
  /** Asks to watch a site (form fields `domain`, `email`, `frequency`); the answer is the same for every address. */
  requestMonitor(input: unknown): Promise<FormResult<{ detail: string }>>;
  /** A monitor's page, comparing the runs with ids `from` and `to` when given; `null` when there is no such monitor. */
  readMonitor(id: string, compare: { from?: string; to?: string }): Promise<MonitorPage | null>;
  /** What a confirmation or unsubscribe link is for, without following it (a GET changes nothing); `null` when invalid. */
  previewMonitorLink(purpose: "confirm" | "unsubscribe", token: string): Promise<MonitorLinkPreview | null>;
  /** Follows a confirmation or unsubscribe link: the form's POST. */
  followMonitorLink(
    purpose: "confirm" | "unsubscribe",
    token: string,
  ): Promise<FormResult<import("../schemas/responses/monitors.ts").MonitorLinkResult>>;
}
