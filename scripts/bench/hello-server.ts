// The baseline for API endpoints: a bare node:http hello-world.
//   node scripts/bench/hello-server.ts <port>
import { createServer } from "node:http";

const body = JSON.stringify({ hello: "world" });
createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}).listen(Number(process.argv[2]), "127.0.0.1");
