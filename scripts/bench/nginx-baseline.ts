// The second baseline for static files: nginx serving the same bytes from disk, one worker process
// (the embedded server is one Node process), its default access log on, as a CDN origin would run.
// nginx comes from Debian (`nginx-light`); the bench installs it when it is missing and it may.
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Started, startCommand } from "./lib/processes.ts";

/**
 * nginx on `port`, answering `urlPath` with the file `body` as `contentType`. Everything it writes
 * (pid, logs, temp files) stays under `workDir`.
 */
export async function startNginx(
  binary: string,
  options: { workDir: string; port: number; urlPath: string; body: string; contentType: string },
): Promise<Started> {
  const { port, urlPath, contentType } = options;
  // nginx reads relative paths from its prefix, not from our working directory.
  const workDir = resolve(options.workDir);
  const body = resolve(options.body);
  await mkdir(join(workDir, "logs"), { recursive: true });
  const config = `
worker_processes 1;
daemon off;
pid ${workDir}/nginx.pid;
error_log ${workDir}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${workDir}/logs/access.log;
  client_body_temp_path ${workDir}/body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    location = ${urlPath} {
      default_type ${contentType};
      alias ${body};
    }
    location = /health { return 200; }
  }
}
`;
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
