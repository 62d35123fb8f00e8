import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../api/config.ts";

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

describe("LOG_FORMAT", () => {
  it("is text outside production and json in production unless set, and nothing else is accepted", () => {
    expect(loadConfig({}).logFormat).toBe("text");
    expect(loadConfig({ NODE_ENV: "production" }).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(loadConfig({ NODE_ENV: "production", LOG_FORMAT: "text" }).logFormat).toBe("text");
    expect(() => loadConfig({ LOG_FORMAT: "pretty" })).toThrow(/LOG_FORMAT: /);
  });
});
