import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Listeners on loopback that a guarded browser must never reach: HTTP on 127.0.0.1, 127.0.0.2 and [::1] (each on its
 * own ephemeral port), and a UDP socket on 127.0.0.1 for STUN. Whatever arrives is recorded; a test about the guard
 * asserts `hits` stays empty.
 */
export interface LoopbackTraps {
  /** `http://127.0.0.1:<port>`, `http://127.0.0.2:<port>`, `http://[::1]:<port>`. */
  v4: string;
  v4Second: string;
  v6: string;
  /** `127.0.0.1:<port>` of the UDP socket, for `stun:` URLs. */
  udp: string;
  hits: string[];
  close(): Promise<void>;
}

async function listen(host: string, hits: string[]): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    hits.push(`${host} ${request.method} ${request.url}`);
    response.end("internal secret");
  });
  server.on("upgrade", (request, socket) => {
    hits.push(`${host} upgrade ${request.url}`);
    socket.destroy();
  });
  server.on("connect", (request, socket) => {
    hits.push(`${host} CONNECT ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://${host.includes(":") ? `[${host}]` : host}:${port}` };
}

export async function startLoopbackTraps(): Promise<LoopbackTraps> {
  const hits: string[] = [];
  const listeners = await Promise.all(["127.0.0.1", "127.0.0.2", "::1"].map((host) => listen(host, hits)));
  const udp: UdpSocket = createSocket("udp4");
  udp.on("message", (message, from) => hits.push(`udp ${message.length} bytes from ${from.address}`));
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  const [v4, v4Second, v6] = listeners.map((listener) => listener.origin) as [string, string, string];
  return {
    v4,
    v4Second,
    v6,
    udp: `127.0.0.1:${udp.address().port}`,
    hits,
    close: async () => {
      udp.close();
      await Promise.all(
        listeners.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
