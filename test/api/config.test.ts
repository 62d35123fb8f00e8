import { describe, expect, it } from "vitest";
import { ConfigError, configurationWarnings, loadBuildConfig, loadConfig } from "../../api/config.ts";

const OLDER = "an-older-server-secret-0123456789abcdef";
const OLDEST = "the-oldest-server-secret-0123456789abcd";

describe("SERVER_SECRET_PREVIOUS", () => {
  it("is a comma-separated list, newest first, and empty when unset", () => {
    expect(loadConfig({ SERVER_SECRET_PREVIOUS: ` ${OLDER}, ${OLDEST},` }).serverSecretPrevious).toEqual([
      OLDER,
      OLDEST,
    ]);
    expect(loadConfig({}).serverSecretPrevious).toEqual([]);
    expect(loadConfig({ SERVER_SECRET_PREVIOUS: "" }).serverSecretPrevious).toEqual([]);
  });

  it("rejects a secret shorter than 32 characters, naming which one without quoting it", () => {
    const load = () => loadConfig({ SERVER_SECRET_PREVIOUS: `${OLDER},short-secret` });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      new ConfigError(
        "Invalid configuration; fix these environment variables:\n  SERVER_SECRET_PREVIOUS: secret 2 of 2 is shorter than 32 characters; each must be at least 32 characters",
      ),
    );
  });
});

describe("a bad configuration", () => {
  it("names every bad variable at once, the rules that hold only in production too", () => {
    const load = () =>
      loadConfig({
        NODE_ENV: "production",
        PORT: "eighty",
        DATABASE_URL: "postgres://elsewhere",
        CHECKS_ALLOWED_TARGETS: "127.0.0.1:8080",
        STRIPE_API_BASE: "http://127.0.0.1:12111",
        OAUTH_CIMD_ALLOWED_TARGETS: "127.0.0.1:8443",
        OAUTH_CIMD_CA_FILE: "test/fixtures/tls/loopback-cert.pem",
      });
    expect(load).toThrow(ConfigError);
    const message = (() => {
      try {
        load();
        return "";
      } catch (error) {
        return error instanceof Error ? error.message : "";
      }
    })();
    for (const name of [
      "PORT",
      "DATABASE_URL",
      "CHECKS_ALLOWED_TARGETS",
      "STRIPE_API_BASE",
      "OAUTH_CIMD_ALLOWED_TARGETS",
      "OAUTH_CIMD_CA_FILE",
    ])
      expect(message).toMatch(new RegExp(`^  ${name}: `, "m"));
  });

  it("for the build, names every bad variable at once as well", () => {
    expect(() => loadBuildConfig({ SITE_URL: "not a url", API_ORIGIN: "ftp://cdn", DIST_DIR: "" }, "/tmp")).toThrow(
      /SITE_URL: [^\n]+\n {2}API_ORIGIN: [^\n]+\n {2}DIST_DIR: /,
    );
  });
});

describe("warnings at start", () => {
  it("warn in production when SERVER_SECRET is unset, and say nothing when it is set or outside production", () => {
    expect(configurationWarnings(loadConfig({ NODE_ENV: "production" }))).toEqual([
      expect.stringMatching(
        /^SERVER_SECRET is not set: download links and credit codes are signed with a secret generated/,
      ),
    ]);
    expect(configurationWarnings(loadConfig({ NODE_ENV: "production", SERVER_SECRET: OLDER }))).toEqual([]);
    expect(configurationWarnings(loadConfig({ NODE_ENV: "development" }))).toEqual([]);
  });
});

describe("LOG_FORMAT", () => {
  it("is text outside production and json in production unless set, and nothing else is accepted", () => {
    expect(loadConfig({}).logFormat).toBe("text");
    expect(loadConfig({ NODE_ENV: "production" }).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(loadConfig({ NODE_ENV: "production", LOG_FORMAT: "text" }).logFormat).toBe("text");
    expect(() => loadConfig({ LOG_FORMAT: "pretty" })).toThrow(/LOG_FORMAT: /);
  });
});
