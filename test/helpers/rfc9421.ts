import { createPublicKey, verify } from "node:crypto";

/**
 * An independent RFC 9421 verifier, written for the tests from the RFC's text with node:crypto alone: its own
 * Structured Field parser (RFC 9651 §4.2, the parts signatures use), its own signature base (RFC 9421 §2.5) and
 * Ed25519 verification. It shares no code with the `http-message-signatures` library the service signs with, so a
 * signature that verifies here was computed as the RFC says, not merely as that library reads it. It is checked
 * against the test vectors published in draft-ietf-webbotauth-httpsig-protocol-01 Appendix E.2.
 */

export type BareItem = string | number | boolean | Uint8Array | { token: string };
export type Params = Map<string, BareItem>;
export interface Item {
  value: BareItem;
  params: Params;
}
export interface InnerList {
  items: Item[];
  params: Params;
}
export type Member = Item | InnerList;

class Cursor {
  index = 0;
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
  peek(): string {
    return this.text[this.index] ?? "";
  }
  skip(characters: string): void {
    while (characters.includes(this.peek()) && this.peek() !== "") this.index += 1;
  }
  take(pattern: RegExp): string {
    const match = pattern.exec(this.text.slice(this.index));
    if (match === null || match.index !== 0) throw new SyntaxError(`unexpected input at ${this.index}: ${this.text}`);
    this.index += match[0].length;
    return match[0];
  }
}

function parseBareItem(cursor: Cursor): BareItem {
  const first = cursor.peek();
  if (first === '"') {
    const raw = cursor.take(/^"(?:[^"\\]|\\["\\])*"/);
    return raw.slice(1, -1).replace(/\\(["\\])/g, "$1");
  }
  if (first === ":") return new Uint8Array(Buffer.from(cursor.take(/^:[A-Za-z0-9+/=]*:/).slice(1, -1), "base64"));
  if (first === "?") return cursor.take(/^\?[01]/) === "?1";
  if (/[-0-9]/.test(first)) return Number(cursor.take(/^-?[0-9]+(?:\.[0-9]+)?/));
  return { token: cursor.take(/^[A-Za-z*][A-Za-z0-9:/!#$%&'*+\-.^_`|~]*/) };
}

function parseParams(cursor: Cursor): Params {
  const params: Params = new Map();
  while (cursor.peek() === ";") {
    cursor.index += 1;
    cursor.skip(" ");
    const key = cursor.take(/^[a-z*][a-z0-9_\-.*]*/);
    let value: BareItem = true;
    if (cursor.peek() === "=") {
      cursor.index += 1;
      value = parseBareItem(cursor);
    }
    params.set(key, value);
  }
  return params;
}

function parseMember(cursor: Cursor): Member {
  if (cursor.peek() !== "(") return { value: parseBareItem(cursor), params: parseParams(cursor) };
  cursor.index += 1;
  const items: Item[] = [];
  for (;;) {
    cursor.skip(" ");
    if (cursor.peek() === ")") break;
    items.push({ value: parseBareItem(cursor), params: parseParams(cursor) });
  }
  cursor.index += 1;
  return { items, params: parseParams(cursor) };
}

/** An RFC 9651 §4.2.2 Dictionary. */
export function parseDictionary(text: string): Map<string, Member> {
  const cursor = new Cursor(text.trim());
  const members = new Map<string, Member>();
  while (cursor.index < cursor.text.length) {
    const key = cursor.take(/^[a-z*][a-z0-9_\-.*]*/);
    if (cursor.peek() === "=") {
      cursor.index += 1;
      members.set(key, parseMember(cursor));
    } else members.set(key, { value: true, params: parseParams(cursor) });
    cursor.skip(" \t");
    if (cursor.peek() === ",") cursor.index += 1;
    cursor.skip(" \t");
  }
  return members;
}

/** RFC 9651 §4.1 serialisation of what a signature base needs: strings, integers, booleans, tokens. */
function serializeBare(value: BareItem): string {
  if (typeof value === "string") return `"${value.replace(/(["\\])/g, "\\$1")}"`;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "?1" : "?0";
  if (value instanceof Uint8Array) return `:${Buffer.from(value).toString("base64")}:`;
  return value.token;
}

function serializeParams(params: Params): string {
  return [...params].map(([key, value]) => (value === true ? `;${key}` : `;${key}=${serializeBare(value)}`)).join("");
}

const isInnerList = (member: Member): member is InnerList => "items" in member;

export interface VerifiableMessage {
  /** The request, or for a response the request it answers (for `;req` components). */
  request: { method: string; url: string; headers: Record<string, string> };
  response?: { status: number; headers: Record<string, string> };
}

/** RFC 9421 §2.2 derived components and §2.1 fields, from the message the component names. */
function componentValue(message: VerifiableMessage, component: Item): string {
  const name = String(component.value);
  const bound = component.params.has("req") || message.response === undefined ? message.request : message.response;
  if (name.startsWith("@")) {
    if (!("method" in bound)) throw new Error(`${name} is not derivable from a response`);
    const url = new URL(bound.url);
    if (name === "@method") return bound.method.toUpperCase();
    if (name === "@authority") return url.host.toLowerCase(); // URL drops the scheme's default port (§2.2.3)
    if (name === "@path") return url.pathname || "/";
    if (name === "@target-uri") return url.href;
    if (name === "@query") return url.search || "?";
    throw new Error(`unsupported derived component ${name}`);
  }
  const raw = Object.entries(bound.headers).find(([header]) => header.toLowerCase() === name)?.[1];
  if (raw === undefined) throw new Error(`the message has no ${name} field`);
  const key = component.params.get("key");
  if (key === undefined) return raw.trim();
  // §2.1.2: a dictionary member's value, re-serialised.
  const member = parseDictionary(raw).get(String(key));
  if (member === undefined || isInnerList(member)) throw new Error(`${name} has no member ${String(key)}`);
  return `${serializeBare(member.value)}${serializeParams(member.params)}`;
}

/** The signature base of RFC 9421 §2.5 for one label of `Signature-Input`. */
export function signatureBase(message: VerifiableMessage, input: InnerList): string {
  const lines = input.items.map(
    (component) =>
      `${serializeBare(component.value)}${serializeParams(component.params)}: ${componentValue(message, component)}`,
  );
  const params = `(${input.items.map((item) => `${serializeBare(item.value)}${serializeParams(item.params)}`).join(" ")})${serializeParams(input.params)}`;
  return [...lines, `"@signature-params": ${params}`].join("\n");
}

export interface Verified {
  label: string;
  input: InnerList;
  /** The parameters as numbers and strings. */
  params: Record<string, BareItem>;
  covered: string[];
}

/**
 * Verifies the signature labelled `label` (RFC 9421 §3.2 steps 1–8) with an Ed25519 public JWK; throws on any
 * failure, so a test's expectation names what went wrong.
 */
export function verifyEd25519(message: VerifiableMessage, label: string, jwk: { x: string }): Verified {
  const headers = message.response?.headers ?? message.request.headers;
  const field = (name: string) => Object.entries(headers).find(([header]) => header.toLowerCase() === name)?.[1];
  const input = parseDictionary(field("signature-input") ?? "").get(label);
  const signature = parseDictionary(field("signature") ?? "").get(label);
  if (input === undefined || !isInnerList(input)) throw new Error(`no Signature-Input for ${label}`);
  if (signature === undefined || isInnerList(signature) || !(signature.value instanceof Uint8Array))
    throw new Error(`no Signature for ${label}`);
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
  const base = signatureBase(message, input);
  if (!verify(null, Buffer.from(base), key, signature.value)) throw new Error(`the signature ${label} does not verify`);
  return {
    label,
    input,
    params: Object.fromEntries(input.params),
    covered: input.items.map((item) => `${serializeBare(item.value)}${serializeParams(item.params)}`),
  };
}
