import { describe, expect, it } from "vitest";
import { parseRange } from "../../../api/platform/http/file-response.ts";
import { DOWNLOAD_LINK_TTL_MS, signDownloadToken, verifyDownloadToken } from "../../../api/store/download-links.ts";

const SECRET = "a-server-secret-of-at-least-32-characters";
const RING = { current: SECRET, previous: [] };
const now = new Date("2026-11-02T10:00:00.000Z");

describe("signed download tokens", () => {
  it("round-trip as v1.<entitlement>.<expiry>.<signature> until they expire", () => {
    const token = signDownloadToken(SECRET, "ent_abc123", new Date(now.getTime() + DOWNLOAD_LINK_TTL_MS));
    expect(token).toMatch(/^v1\.ent_abc123\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyDownloadToken(RING, token, now)).toMatchObject({ ok: true, entitlementId: "ent_abc123" });
    expect(verifyDownloadToken(RING, token, new Date(now.getTime() + DOWNLOAD_LINK_TTL_MS))).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("refuse every change to any part, another secret, and a second spelling of the signature", () => {
    const token = signDownloadToken(SECRET, "ent_abc123", new Date(now.getTime() + 60_000));
    const [, id, expiry, signature = ""] = token.split(".");
    // The last base64url character carries 2 spare bits: flipping one spells the same bytes differently.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(signature.at(-1) ?? "A") ^ 1]}`;
    expect(Buffer.from(respelled, "base64url").equals(Buffer.from(signature, "base64url"))).toBe(true);
    for (const candidate of [
      `v2.${id}.${expiry}.${signature}`,
      `v1.ent_abc124.${expiry}.${signature}`,
      `v1.${id}.${Number(expiry) + 1}.${signature}`,
      `v1.${id}.${expiry}.${respelled}`,
      `${token}x`,
      "",
    ]) {
      expect(verifyDownloadToken(RING, candidate, now).ok, candidate).toBe(false);
    }
    expect(
      verifyDownloadToken({ current: "another-secret-of-at-least-32-characters", previous: [] }, token, now),
    ).toEqual({ ok: false, reason: "signature" });
  });

  it("verify under any key of the ring, so links signed before a rotation keep working until the key is retired", () => {
    const token = signDownloadToken(SECRET, "ent_abc123", new Date(now.getTime() + 60_000));
    const rotated = {
      current: "the-new-server-secret-of-at-least-32-chars",
      previous: ["an-older-secret-of-at-least-32-characters", SECRET],
    };
    expect(verifyDownloadToken(rotated, token, now)).toMatchObject({ ok: true, entitlementId: "ent_abc123" });
    expect(verifyDownloadToken({ ...rotated, previous: [] }, token, now)).toEqual({ ok: false, reason: "signature" });
  });
});

describe("Range headers (RFC 9110 §14.2)", () => {
  it.each([
    [null, 100, null],
    ["bytes=0-9", 100, { start: 0, end: 9 }],
    ["bytes=90-", 100, { start: 90, end: 99 }],
    ["bytes=90-200", 100, { start: 90, end: 99 }],
    ["bytes=-10", 100, { start: 90, end: 99 }],
    ["bytes=-200", 100, { start: 0, end: 99 }],
    ["bytes=100-", 100, "unsatisfiable"],
    ["bytes=-0", 100, "unsatisfiable"],
    ["bytes=0-0", 0, "unsatisfiable"],
    ["bytes=9-5", 100, null],
    ["bytes=0-1,5-6", 100, null],
    ["items=0-1", 100, null],
    ["bytes=-", 100, null],
  ] as const)("%s of %i bytes → %j", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
