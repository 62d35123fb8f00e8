import { createHash, createPublicKey } from "node:crypto";
import { createVerifier, httpbis } from "http-message-signatures";
import {
  type Dictionary,
  type InnerList,
  type Item,
  isInnerList,
  parseDictionary,
  serializeDictionary,
} from "structured-headers";
import type { ScanResponse } from "../fetch/scan-response.ts";
import type { Verdict } from "../verdict.ts";
import { type DirectoryKey, DRAFT, type JudgedKey } from "./key-directory.ts";

const PROOF = `${DRAFT} Appendix B.1`;
const DIRECTORY_TAG = "http-message-signatures-directory";
/** How far a directory server's clock may run ahead of ours before a `created` counts as "in the future". */
const CLOCK_SKEW_SECONDS = 60;

function dictionaryOf(response: ScanResponse, field: string): Dictionary | null {
  const value = response.headers[field];
  if (value === undefined) return new Map();
  try {
    return parseDictionary(value);
  } catch {
    return null;
  }
}

/** The registered RFC 9421 algorithm a directory key verifies with (RFC 9421 §3.3). */
function algorithmFor(key: DirectoryKey): string {
  if (key.kty === "OKP") return "ed25519";
  if (key.kty === "EC") return key.crv === "P-384" ? "ecdsa-p384-sha384" : "ecdsa-p256-sha256";
  return key.alg === "rsa-v1_5-sha256" ? key.alg : "rsa-pss-sha512";
}

/** RFC 9530 §2: each digest the field lists must be the body's. `null` when it matches; otherwise what is wrong. */
function digestProblem(response: ScanResponse): string | null {
  const digests = dictionaryOf(response, "content-digest");
  if (digests === null) return "Content-Digest is not a structured-field dictionary (RFC 9530 §2)";
  if (digests.size === 0) return "the response has no Content-Digest for the proof to cover";
  for (const [algorithm, member] of digests) {
    const hash = algorithm === "sha-256" ? "sha256" : algorithm === "sha-512" ? "sha512" : null;
    if (hash === null || isInnerList(member) || !(member[0] instanceof ArrayBuffer)) continue;
    const sent = Buffer.from(member[0]).toString("base64");
    if (sent !== createHash(hash).update(response.body).digest("base64"))
      return `Content-Digest ${algorithm} is not the digest of the body (RFC 9530 §2)`;
  }
  return null;
}

interface Proof {
  label: string;
  input: InnerList;
  signature: Item;
}

/** What a proof lacks of Appendix B.1's MUSTs, or an empty list. */
function missingParts(proof: Proof, now: Date): string[] {
  const [items, params] = proof.input;
  const names = items.map(([name, itemParams]) => (itemParams.has("req") ? `${String(name)};req` : String(name)));
  const missing = ["@authority;req", "content-digest"].filter((name) => !names.includes(name));
  const problems = missing.map((name) => `${proof.label} does not cover "${name.replace(";req", '";req')}`);
  for (const param of ["created", "expires", "keyid"])
    if (!params.has(param)) problems.push(`${proof.label} has no ${param}`);
  const nowSeconds = now.getTime() / 1000;
  const created = Number(params.get("created"));
  if (created > nowSeconds + CLOCK_SKEW_SECONDS) problems.push(`${proof.label} was created in the future`);
  if (Number(params.get("expires")) < nowSeconds) problems.push(`${proof.label} has expired`);
  return problems;
}

async function verifies(proof: Proof, key: DirectoryKey, response: ScanResponse): Promise<boolean> {
  const algorithm = algorithmFor(key);
  // One label at a time, so each proof is judged on its own (the library accepts any one valid signature).
  const signed = {
    status: response.status,
    headers: {
      ...response.headers,
      "signature-input": serializeDictionary(new Map([[proof.label, proof.input]])),
      signature: serializeDictionary(new Map([[proof.label, proof.signature]])),
    },
  };
  const request = { method: response.method, url: response.url, headers: { ...response.requestHeaders } };
  try {
    // Only the public members: a judged key never has `d`, and node:crypto rejects members it does not know.
    const { kty, crv, x, y, n, e } = key;
    const publicKey = createPublicKey({ key: { kty, crv, x, y, n, e }, format: "jwk" });
    const lookup = async () => ({ id: "", algs: [algorithm], verify: createVerifier(publicKey, algorithm) });
    return (
      (await httpbis.verifyMessage({ keyLookup: lookup, tolerance: CLOCK_SKEW_SECONDS }, signed, request)) === true
    );
  } catch {
    return false;
  }
}

/**
 * Judges the directory response's possession proofs (Appendix B.1): optional for a directory resolved directly, so
 * their absence is only a note; but a proof that is sent must cover `"@authority";req` and `content-digest`, carry
 * `created`, `expires` and a `keyid` naming a listed key, not be dated in the future, and verify. Answers how many
 * keys are proven.
 */
export async function judgeDirectoryProofs(
  response: ScanResponse,
  keys: readonly JudgedKey[],
  now: Date,
  verdict: Verdict,
): Promise<number> {
  const inputs = dictionaryOf(response, "signature-input");
  const signatures = dictionaryOf(response, "signature");
  if (inputs === null || signatures === null) {
    verdict.must("RFC 9421 §4", "Signature-Input or Signature is not a structured-field dictionary");
    return 0;
  }
  const proofs: Proof[] = [];
  for (const [label, input] of inputs) {
    const signature = signatures.get(label);
    if (!isInnerList(input) || input[1].get("tag") !== DIRECTORY_TAG) continue;
    if (signature === undefined || isInnerList(signature)) verdict.must("RFC 9421 §4.2", `${label} has no Signature`);
    else proofs.push({ label, input, signature });
  }
  if (proofs.length === 0) {
    verdict.hint(PROOF, "the response carries no possession proof (only needed to bind the keys to this domain)");
    return 0;
  }
  const encoded = (response.headers["content-encoding"] ?? "identity") !== "identity";
  const digest = encoded ? null : digestProblem(response);
  if (digest !== null) verdict.must(PROOF, digest);
  if (encoded) verdict.hint(PROOF, "the directory was content-coded, so its Content-Digest was not compared");
  const proven = new Set<string>();
  for (const proof of proofs) {
    const problems = missingParts(proof, now);
    const keyid = proof.input[1].get("keyid");
    const judged = keys.find((key) => key.thumbprint === keyid);
    if (judged === undefined) problems.push(`${proof.label}'s keyid names no usable key of the directory`);
    else if (problems.length === 0 && !(await verifies(proof, judged.key, response)))
      problems.push(`${proof.label} does not verify with the key its keyid names`);
    for (const problem of problems) verdict.must(PROOF, problem);
    if (problems.length === 0 && judged !== undefined) proven.add(judged.thumbprint);
  }
  const unproven = keys.filter((key) => !proven.has(key.thumbprint)).length;
  if (unproven > 0) verdict.should(PROOF, `${unproven} key(s) without a proof of their own; each key should sign one`);
  return proven.size;
}
