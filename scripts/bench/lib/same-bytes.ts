import { mkdir, writeFile } from "node:fs/promises";
import { type IncomingHttpHeaders, request } from "node:http";
import { dirname } from "node:path";
import { type Started, startProcess } from "./processes.ts";

/** What the server sent for one request: its headers and its body as they were on the wire. */
export interface SentAnswer {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One GET, read raw: node:http leaves the body as sent (a compressed copy stays compressed). */
export function rawGet(url: string, headers: Record<string, string>): Promise<SentAnswer> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

/**
 * The baseline of a throughput ratio: a bare node:http server (scripts/bench/bare-server.ts) answering every
 * request with the same head and body as `sample`, from memory, so the ratio is the cost of everything the service
 * does beyond writing those bytes. Headers Node adds itself (Date, Connection, Keep-Alive, Transfer-Encoding) are its
 * own. The body and headers go to `<base>.body` and `<base>.headers.json`.
 */
export async function startSameBytesServer(sample: SentAnswer, base: string, port: number): Promise<Started> {
  const headers = Object.entries(sample.headers).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === "string" && !["date", "connection", "keep-alive", "transfer-encoding"].includes(entry[0]),
  );
  await mkdir(dirname(base), { recursive: true });
  await writeFile(`${base}.body`, sample.body);
  await writeFile(`${base}.headers.json`, JSON.stringify(headers));
  return startProcess(
    ["scripts/bench/bare-server.ts", String(port), `${base}.body`, `${base}.headers.json`],
    {},
    `http://127.0.0.1:${port}/`,
    `http://127.0.0.1:${port}`,
  );
}
