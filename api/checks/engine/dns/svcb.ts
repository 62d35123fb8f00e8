/**
 * SVCB records (RFC 9460) as a DNS-over-HTTPS JSON answer carries them: in presentation format
 * (`1 agent.example.com. alpn="mcp" port=443`) or, from resolvers that do not know the type, in RFC 3597's generic
 * form (`\# 23 00 01 …`). Parameters come back by name, DNS-AID's private-use keys included.
 */
export interface SvcbRecord {
  /** 0 is AliasMode, anything else ServiceMode (RFC 9460 §2.4). */
  priority: number;
  /** Without the trailing dot; "." means the owner name itself. */
  target: string;
  params: Readonly<Record<string, string>>;
}

/** RFC 9460 §14.3 registered keys, then the keys DNS-AID uses until IANA assigns its own (key65400…key65404). */
const KEY_NAMES: Readonly<Record<number, string>> = {
  0: "mandatory",
  1: "alpn",
  2: "no-default-alpn",
  3: "port",
  4: "ipv4hint",
  5: "ech",
  6: "ipv6hint",
  65400: "cap",
  65401: "capsha256",
  65402: "bap",
  65403: "policy",
  65404: "realm",
};

function keyName(key: number): string {
  return KEY_NAMES[key] ?? `key${key}`;
}

const PARAM_PATTERN = /([A-Za-z0-9-]+)(?:=("(?:[^"\\]|\\.)*"|\S*))?/g;

function parsePresentation(data: string): SvcbRecord | null {
  const match = /^\s*(\d{1,5})\s+(\S+)\s*(.*)$/s.exec(data);
  if (match === null) return null;
  const params: Record<string, string> = {};
  for (const param of (match[3] ?? "").matchAll(PARAM_PATTERN)) {
    const raw = param[1]?.toLowerCase() ?? "";
    const numbered = /^key(\d{1,5})$/.exec(raw);
    const name = numbered === null ? raw : keyName(Number(numbered[1]));
    const value = param[2] ?? "";
    params[name] = value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
  }
  return { priority: Number(match[1]), target: (match[2] ?? ".").replace(/(.)\.$/, "$1"), params };
}

function readName(bytes: Uint8Array, start: number): { name: string; next: number } | null {
  const labels: string[] = [];
  let position = start;
  for (;;) {
    const length = bytes[position];
    if (length === undefined || length > 63) return null;
    position += 1;
    if (length === 0) break;
    if (position + length > bytes.length) return null;
    labels.push(Buffer.from(bytes.subarray(position, position + length)).toString("latin1"));
    position += length;
  }
  return { name: labels.length === 0 ? "." : labels.join("."), next: position };
}

function paramValue(key: number, value: Uint8Array): string {
  const view = Buffer.from(value);
  switch (keyName(key)) {
    case "alpn": {
      const ids: string[] = [];
      for (let position = 0; position < view.length; position += 1 + (view[position] ?? 0))
        ids.push(view.subarray(position + 1, position + 1 + (view[position] ?? 0)).toString("latin1"));
      return ids.join(",");
    }
    case "port":
      return view.length === 2 ? String(view.readUInt16BE(0)) : "";
    case "mandatory":
      return Array.from({ length: Math.floor(view.length / 2) }, (_, index) =>
        keyName(view.readUInt16BE(index * 2)),
      ).join(",");
    case "ipv4hint":
      return Array.from({ length: Math.floor(view.length / 4) }, (_, index) =>
        Array.from(view.subarray(index * 4, index * 4 + 4)).join("."),
      ).join(",");
    case "no-default-alpn":
      return "";
    default:
      return view.toString("utf8");
  }
}

function parseGeneric(data: string): SvcbRecord | null {
  const match = /^\s*\\#\s+(\d+)\s*([0-9a-fA-F\s]*)$/.exec(data);
  if (match === null) return null;
  const bytes = Buffer.from((match[2] ?? "").replace(/\s+/g, ""), "hex");
  if (bytes.length !== Number(match[1]) || bytes.length < 3) return null;
  const target = readName(bytes, 2);
  if (target === null) return null;
  const params: Record<string, string> = {};
  let position = target.next;
  while (position + 4 <= bytes.length) {
    const key = bytes.readUInt16BE(position);
    const length = bytes.readUInt16BE(position + 2);
    if (position + 4 + length > bytes.length) return null;
    params[keyName(key)] = paramValue(key, bytes.subarray(position + 4, position + 4 + length));
    position += 4 + length;
  }
  return { priority: bytes.readUInt16BE(0), target: target.name, params };
}

/** One answer's `data`, or null when it is neither presentation nor generic SVCB. */
export function parseSvcbData(data: string): SvcbRecord | null {
  return data.trimStart().startsWith("\\#") ? parseGeneric(data) : parsePresentation(data);
}
