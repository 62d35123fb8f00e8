import { createSocket } from "node:dgram";

/** A DNS server on loopback (UDP): it answers the names it knows and reads and drops every other query. */
export interface DnsServer {
  /** `127.0.0.1:<port>`, as `Resolver.setServers` takes it. */
  address: string;
  /** Queries received, by name, answered or not. */
  queries: string[];
  close(): Promise<void>;
}

const TYPE_A = 1;

/** The question's name (labels from offset 12) and where its type starts. */
function readQuestion(packet: Buffer): { name: string; end: number } | null {
  const labels: string[] = [];
  let offset = 12;
  while (offset < packet.length) {
    const length = packet[offset] ?? 0;
    if (length === 0) return { name: labels.join(".").toLowerCase(), end: offset + 1 };
    labels.push(packet.subarray(offset + 1, offset + 1 + length).toString("latin1"));
    offset += 1 + length;
  }
  return null;
}

/** RFC 1035 §4.1: the query's id and question echoed, one A record per address (none for AAAA: NOERROR, no data). */
function answer(query: Buffer, end: number, addresses: readonly string[]): Buffer {
  const type = query.readUInt16BE(end);
  const records = type === TYPE_A ? addresses : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8180, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const question = query.subarray(12, end + 4);
  const answers = records.map((address) => {
    const record = Buffer.alloc(16);
    record.writeUInt16BE(0xc00c, 0);
    record.writeUInt16BE(TYPE_A, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(4, 10);
    Buffer.from(address.split(".").map(Number)).copy(record, 12);
    return record;
  });
  return Buffer.concat([header, question, ...answers]);
}

/**
 * Starts a name server that answers each name of `known` with its IPv4 address and never answers anything else: the
 * tarpit a hostile site's name server can be.
 */
export async function startDnsServer(known: Readonly<Record<string, string>> = {}): Promise<DnsServer> {
  const socket = createSocket("udp4");
  const queries: string[] = [];
  socket.on("message", (packet, peer) => {
    const question = readQuestion(packet);
    if (question === null || question.end + 4 > packet.length) return;
    queries.push(question.name);
    const address = known[question.name];
    if (address === undefined) return;
    socket.send(answer(packet, question.end, [address]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
