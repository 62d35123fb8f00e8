// The baseline: a bare node:http server answering every request with the same bytes from memory:
// the body and the response headers the embedded server sent for the same URL.
//   node scripts/bench/bare-server.ts <port> <file with the body> <file with the headers as JSON>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, bodyFile, headersFile] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(bodyFile);
const headers = JSON.parse(readFileSync(headersFile, "utf8")) as [string, string][];
createServer((_request, response) => {
  response.writeHead(200, headers.flat());
  response.end(body);
}).listen(Number(port), "127.0.0.1");
