import { createHmac, randomBytes } from "node:crypto";
import { ringKeys, type SecretRing } from "../platform/secret-ring.ts";

// Crockford Base32 (https://www.crockford.com/base32.html): no I, L, O or U, so a code read
// aloud or retyped survives; the check symbol is the value mod 37, with five extra symbols.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CHECK_ALPHABET = `${ALPHABET}*~$=U`;
const SYMBOLS = 20;

/** 20 random symbols (100 bits) and a check symbol, shown as `XXXXX-XXXXX-XXXXX-XXXXX-C`. */
export function generateCreditCode(): string {
  return creditCodeFromBytes(randomBytes(13));
}

/**
 * The code a paid pack gets, derived from the payment with the server secret: a replayed webhook
 * derives the same code (so it can never mint a second one), and the e-mail can show it when it is
 * sent without the code ever being stored in the clear. As unguessable as the secret.
 */
export function deriveCreditCode(secret: string, paymentId: string): string {
  return creditCodeFromBytes(
    createHmac("sha256", secret).update(`credit-code-for-payment:${paymentId}`).digest().subarray(0, 13),
  );
}

function creditCodeFromBytes(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  value &= (1n << 100n) - 1n;
  const symbols = [...Array(SYMBOLS)]
    .map((_, index) => ALPHABET[Number((value >> BigInt(5 * (SYMBOLS - 1 - index))) & 31n)] ?? "0")
    .join("");
  return `${symbols.match(/.{5}/g)?.join("-") ?? symbols}-${checkSymbol(symbols)}`;
}

function checkSymbol(symbols: string): string {
  let value = 0n;
  for (const symbol of symbols) value = value * 32n + BigInt(ALPHABET.indexOf(symbol));
  return CHECK_ALPHABET[Number(value % 37n)] ?? "0";
}

export type CodeCheck = { ok: true; normalised: string } | { ok: false; reason: "malformed" | "check-symbol" };

/**
 * Normalises what a person typed (case, hyphens, spaces; I and L read as 1, O as 0) and verifies
 * the check symbol, so a typo is answered at once without a database lookup.
 */
export function normaliseCreditCode(input: string): CodeCheck {
  const cleaned = input.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  if (cleaned.length !== SYMBOLS + 1) return { ok: false, reason: "malformed" };
  const symbols = cleaned.slice(0, SYMBOLS);
  const check = cleaned.slice(SYMBOLS);
  if (![...symbols].every((symbol) => ALPHABET.includes(symbol)) || !CHECK_ALPHABET.includes(check))
    return { ok: false, reason: "malformed" };
  if (checkSymbol(symbols) !== check) return { ok: false, reason: "check-symbol" };
  return { ok: true, normalised: cleaned };
}

/** What is stored: an HMAC under the server secret, so a copy of the database cannot be tried offline. */
export function hashCreditCode(secret: string, normalised: string): string {
  return createHmac("sha256", secret).update(`credit-code:${normalised}`).digest("hex");
}

/** The code's hash under every key of the ring, current first: a code issued before a rotation is stored under an older key. */
export function creditCodeHashes(ring: SecretRing, normalised: string): string[] {
  return ringKeys(ring).map((key) => hashCreditCode(key, normalised));
}

/**
 * The payment's code as it was issued: derived under the ring key whose hash is the stored one, so
 * a receipt queued before a rotation and sent after carries the code that still redeems. `null`
 * once that key has been retired (the code no longer works).
 */
export function issuedPaymentCode(ring: SecretRing, paymentId: string, storedHash: string): string | null {
  for (const key of ringKeys(ring)) {
    const code = deriveCreditCode(key, paymentId);
    const checked = normaliseCreditCode(code);
    if (checked.ok && hashCreditCode(key, checked.normalised) === storedHash) return code;
  }
  return null;
}
