import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../api/config.ts";
import { bannerText, describeStart, type StartState } from "../../../api/wiring/start-banner.ts";
import { DEFAULT_SWITCHES } from "../../../src/lib/switches.ts";

const running: StartState = {
  port: 4321,
  databasePath: "/srv/data/service.db",
  switches: DEFAULT_SWITCHES,
  buildFound: true,
};
const bannerFor = (env: Record<string, string>, state: Partial<StartState> = {}) =>
  bannerText(describeStart(loadConfig(env, "/srv"), { ...running, ...state }));

describe("the start banner", () => {
  it("names nothing as off when payments, webhooks, mail, the build and every switch are on", () => {
    const facts = describeStart(
      loadConfig({
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        SMTP_URL: "smtp://127.0.0.1:1025",
      }),
      running,
    );
    expect(facts.off).toEqual([]);
    expect(bannerText(facts)).not.toContain("Off:");
    expect(bannerText(facts)).toContain("Payments: Stripe, test mode");
  });

  it("says payment events are refused when the key is set without a webhook secret", () => {
    expect(bannerFor({ STRIPE_SECRET_KEY: "sk_test_x" })).toContain(
      "payment webhooks: the provider's events are refused with 503; turn on with STRIPE_WEBHOOK_SECRET",
    );
  });

  it("lists each switch staff turned off with the command that turns it back on", () => {
    const banner = bannerFor({}, { switches: { ...DEFAULT_SWITCHES, store: false, agent_register: false } });
    expect(banner).toContain("store: switched off by staff; turn on with `npm run admin -- switches set store on`");
    expect(banner).toContain(
      "agent_register: switched off by staff; turn on with `npm run admin -- switches set agent_register on`",
    );
  });

  it("says the site answers 503 without a build, and how to make one", () => {
    expect(bannerFor({ DIST_DIR: "elsewhere" }, { buildFound: false })).toContain(
      "the site: no build in /srv/elsewhere, so pages and documents answer 503; turn on with `npm run build`",
    );
  });

  it("never shows the credentials in a mail or database URL", () => {
    const banner = bannerFor(
      {
        SMTP_URL: "smtps://mailer:hunter2hunter2@smtp.example.com:465",
        DATABASE_URL: "libsql://db.example.com?authToken=secret-token",
      },
      { databasePath: undefined },
    );
    expect(banner).toContain("Mail:     sent through smtps://smtp.example.com:465 from no-reply@127.0.0.1");
    expect(banner).toContain("Database: libSQL server at libsql://db.example.com");
    expect(banner).not.toMatch(/hunter2|secret-token|mailer/);
  });

  it("shows where it listens when that is not the public URL, and offers the demo only outside production", () => {
    const banner = bannerFor(
      { SITE_URL: "https://agentready.example", HOST: "0.0.0.0", NODE_ENV: "production" },
      { port: 8080 },
    );
    expect(banner.split("\n")[0]).toBe(
      "AgentReady is running at https://agentready.example (listening on http://0.0.0.0:8080)",
    );
    expect(banner).not.toContain("npm run demo");
    expect(bannerFor({})).toContain("(or try `npm run demo`: a local fake provider)");
  });
});
