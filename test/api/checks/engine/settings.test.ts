import { describe, expect, it } from "vitest";
import {
  CheckerConfigurationError,
  checkerSettingsFromConfig,
  DEFAULT_CHECKER_LIMITS,
  defineCheckerSettings,
} from "../../../../api/checks/engine/settings.ts";
import { ConfigError, loadConfig } from "../../../../api/config.ts";

/** The checker's settings as the service and the CLIs build them: from the parsed environment. */
const checkerSettingsFromEnv = (env: Record<string, string>) => checkerSettingsFromConfig(loadConfig(env), null);

describe("the checker's settings from the environment", () => {
  it("reads the comma-separated allowance and names the site in the User-Agent", () => {
    const settings = checkerSettingsFromEnv({
      CHECKS_ALLOWED_TARGETS: "127.0.0.1:4321, [::1]:8080,localhost",
      SITE_URL: "https://agent-ready.example/",
      NODE_ENV: "test",
    });
    expect(settings.allowedTargets).toEqual([
      { host: "127.0.0.1", port: 4321 },
      { host: "[::1]", port: 8080 },
      { host: "localhost", port: null },
    ]);
    expect(settings.userAgent).toBe("AgentReadyBot/1.0 (+https://agent-ready.example/docs/checks/crawler)");
    expect(settings.production).toBe(false);
    expect(settings.limits).toEqual(DEFAULT_CHECKER_LIMITS);
  });

  it("defaults to no allowance", () => {
    expect(checkerSettingsFromEnv({}).allowedTargets).toEqual([]);
  });

  it("refuses the allowance in production", () => {
    expect(() => checkerSettingsFromEnv({ NODE_ENV: "production", CHECKS_ALLOWED_TARGETS: "127.0.0.1:4321" })).toThrow(
      ConfigError,
    );
    expect(() => checkerSettingsFromEnv({ NODE_ENV: "production", CHECKS_ALLOWED_TARGETS: "127.0.0.1:4321" })).toThrow(
      /must be empty in production/,
    );
    expect(() => defineCheckerSettings({ production: true, allowedTargets: ["127.0.0.1:4321"] })).toThrow(
      CheckerConfigurationError,
    );
    expect(checkerSettingsFromEnv({ NODE_ENV: "production" }).production).toBe(true);
  });

  it("rejects entries that are not host[:port]", () => {
    expect(() => checkerSettingsFromEnv({ CHECKS_ALLOWED_TARGETS: "http://127.0.0.1:4321" })).toThrow(
      '"http://127.0.0.1:4321" is not host[:port]',
    );
    expect(() => defineCheckerSettings({ allowedTargets: ["127.0.0.1:70000"] })).toThrow("invalid port");
    expect(() => checkerSettingsFromEnv({ SITE_URL: "ftp://example.com" })).toThrow(ConfigError);
  });

  it("normalises numeric IPv4 forms in the allowance like URLs do", () => {
    expect(defineCheckerSettings({ allowedTargets: ["2130706433:80"] }).allowedTargets).toEqual([
      { host: "127.0.0.1", port: 80 },
    ]);
  });
});
