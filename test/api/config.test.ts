import { describe, expect, it } from "vitest";
import { ConfigError, configurationWarnings, loadConfig } from "../../api/config.ts";

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
