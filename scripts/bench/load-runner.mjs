// The load generator, in its own plain Node process (no TypeScript loader in the way), so it gets a
// core of its own and measures the server, not itself. Reads its options as JSON from argv[2] and
// prints autocannon's summary as JSON.
//   options: { url, connections, seconds, method, headers, bodies?: string[], headerSets?: object[], requests?: {method, path, headers?, body?}[] }
// `bodies`/`headerSets` rotate per request (distinct agents, distinct entries).
import autocannon from "autocannon";

const options = JSON.parse(process.argv[2]);
let next = 0;
const rotate = options.bodies || options.headerSets || options.requests;
const result = await autocannon({
  url: options.url,
  connections: options.connections ?? 32,
  duration: options.seconds ?? 5,
  method: options.method ?? "GET",
  headers: options.headers ?? {},
  ...(rotate
    ? {
        requests: [
          {
            setupRequest(request) {
              const index = next++;
              if (options.requests) {
                const entry = options.requests[index % options.requests.length];
                return {
                  ...request,
                  method: entry.method,
                  path: entry.path,
                  headers: { ...request.headers, ...(entry.headers ?? {}) },
                  ...(entry.body === undefined ? {} : { body: entry.body }),
                };
              }
              return {
                ...request,
                ...(options.bodies ? { body: options.bodies[index % options.bodies.length] } : {}),
                ...(options.headerSets
                  ? { headers: { ...request.headers, ...options.headerSets[index % options.headerSets.length] } }
                  : {}),
              };
            },
          },
        ],
      }
    : {}),
});
const statusCodes = {};
for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count.count;
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
    statusCodes,
  }),
);
