// The second baseline for static files: nginx serving the same bytes from disk, one worker process
// (the embedded server is one Node process), its default access log on, as a CDN origin would run.
// nginx comes from Debian (`nginx-light`); the bench installs it when it is missing and it may.
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { NGINX_OWN_HEADERS, nginxConfig, quoted } from "../../src/lib/nginx-conf.ts";
import { type Started, startCommand } from "./lib/processes.ts";

/**
 * The headers of an answer that nginx does not write itself: what the baseline adds, so that it sends the same head
 * as the server it is compared with (nginx's own Date, ETag and Content-Length stand for that server's).
 */
export function headersToAdd(headers: Iterable<readonly [string, string | string[] | undefined]>): [string, string][] {
  return [...headers].filter(
    (entry): entry is [string, string] => typeof entry[1] === "string" && !NGINX_OWN_HEADERS.has(entry[0]),
  );
}

/**
 * nginx on `port`, answering `urlPath` with the file `body` as `contentType`, with `headers` added
 * (a baseline sends the same head as what it is compared with). Everything it writes (pid, logs,
 * temp files) stays under `workDir`.
 */
export async function startNginx(
  binary: string,
  options: {
    workDir: string;
    port: number;
    urlPath: string;
    body: string;
    contentType: string;
    headers?: readonly (readonly [string, string])[];
  },
): Promise<Started> {
  const { port, urlPath, contentType } = options;
  // nginx reads relative paths from its prefix, not from our working directory.
  const workDir = resolve(options.workDir);
  const body = resolve(options.body);
  await mkdir(workDir, { recursive: true });
  const config = nginxConfig({
    workDir,
    workers: 1,
    comment: "The benchmark's nginx baseline (scripts/bench/nginx-baseline.ts).",
    http: `  server {
    listen 127.0.0.1:${port};
    location = ${urlPath} {
      default_type ${contentType};
      alias ${body};
${(options.headers ?? []).map(([name, value]) => `      add_header ${name} ${quoted(value)} always;\n`).join("")}    }
    location = /health { return 200; }
  }
`,
  });
  const configFile = join(workDir, "nginx.conf");
  await writeFile(configFile, config);
  return startCommand(
    binary,
    ["-p", workDir, "-c", configFile],
    {},
    `http://127.0.0.1:${port}/health`,
    `http://127.0.0.1:${port}`,
  );
}
