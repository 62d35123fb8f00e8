// Serving static documents through the embedded server, side by side with a bare node:http server
// returning the same bytes from memory. Target: ≥ 70 % of the bare server's requests per second.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compareWithBaseline } from "./lib/load.ts";
import { startProcess } from "./lib/processes.ts";
import { type BenchSection, fmt } from "./lib/report.ts";

export async function benchServing(distDir: string, siteUrl: string, port: number): Promise<BenchSection> {
  const server = await startProcess(
    ["--import", "tsx", "api/server.ts"],
    { PORT: String(port), SITE_URL: siteUrl, DIST_DIR: distDir, LOG_LEVEL: "info", NODE_ENV: "production" },
    `${siteUrl}/health`,
    siteUrl,
  );
  const rows: BenchSection["rows"] = [];
  try {
    for (const path of ["/api/v1/docs", "/docs/store"]) {
      const sample = await fetch(`${siteUrl}${path}`);
      const bytes = new Uint8Array(await sample.arrayBuffer());
      // Same bytes on the wire: the body and every header except those Node adds itself.
      const headers = [...sample.headers].filter(
        ([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name),
      );
      const base = join(distDir, "..", `bare-${path.replaceAll("/", "_")}`);
      await mkdir(join(distDir, ".."), { recursive: true });
      await writeFile(`${base}.body`, bytes);
      await writeFile(`${base}.headers.json`, JSON.stringify(headers));
      const barePort = port + 1;
      const bare = await startProcess(
        ["--import", "tsx", "scripts/bench/bare-server.ts", String(barePort), `${base}.body`, `${base}.headers.json`],
        {},
        `http://127.0.0.1:${barePort}/`,
        `http://127.0.0.1:${barePort}`,
      );
      try {
        const result = await compareWithBaseline({ url: `${siteUrl}${path}` }, { url: `${bare.url}${path}` });
        rows.push({
          metric: `GET ${path} (${bytes.length.toLocaleString("en")} bytes, 32 connections)`,
          value: `${fmt.rps(result.target.requestsPerSecond)} = ${fmt.pct(result.ratio)} (p99 ${fmt.ms(result.target.p99Ms)})`,
          baseline: fmt.rps(result.baseline.requestsPerSecond),
          target: "≥ 70 % of bare",
          met: result.ratio >= 0.7,
        });
      } finally {
        await bare.stop();
      }
    }
    rows.push({
      metric: "server RSS after the runs",
      value: fmt.mb(await server.rssMb()),
      target: "reported",
      met: true,
    });
  } finally {
    await server.stop();
  }
  return { title: "Serving static documents (embedded server vs bare node:http)", rows };
}
