import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { nginxServerConfig } from "../../src/lib/nginx-conf.ts";
import { type Started, startCommand } from "../bench/lib/processes.ts";
import { canInstallDebianPackages, installDebianPackage } from "./debian-package.ts";

const NGINX = "/usr/sbin/nginx";

/** The nginx binary, installed from Debian (`nginx-light`) when missing and this process may; null otherwise. */
export function nginxBinary(): string | null {
  if (!existsSync(NGINX) && canInstallDebianPackages()) installDebianPackage("nginx-light");
  return existsSync(NGINX) ? NGINX : null;
}

/** The nginx binary, or an error naming the command that installs it. */
export function requireNginx(): string {
  const binary = nginxBinary();
  if (!binary) throw new Error("nginx is not installed: run `sudo apt-get install -y nginx-light` (Debian's package).");
  return binary;
}

/**
 * nginx as the static front of a deployment: the build's own rules (`<dist>/nginx/routes.conf`,
 * written by `npm run build` from the route manifest) in a server on `port`, proxying everything
 * else round-robin to `instances` (`host:port` each). Its pid, logs and temp files stay in `workDir`.
 */
export async function startStaticFront(options: {
  distDir: string;
  instances: readonly string[];
  port: number;
  workDir: string;
  workers?: number | "auto";
}): Promise<Started & { configFile: string }> {
  const binary = requireNginx();
  const workDir = resolve(options.workDir);
  const distDir = resolve(options.distDir);
  const routesFile = join(distDir, "nginx", "routes.conf");
  if (!existsSync(routesFile)) throw new Error(`${routesFile} is missing: build the site first (npm run build).`);
  await mkdir(workDir, { recursive: true });
  const configFile = join(workDir, "nginx.conf");
  const listen = `127.0.0.1:${options.port}`;
  await writeFile(
    configFile,
    nginxServerConfig({
      listen,
      root: join(distDir, "client"),
      instances: options.instances,
      workDir,
      routesFile,
      workers: options.workers,
    }),
  );
  // nginx answers /robots.txt from the build's file: ready once the front itself serves.
  const started = await startCommand(
    binary,
    ["-p", workDir, "-c", configFile],
    {},
    `http://${listen}/robots.txt`,
    `http://${listen}`,
  );
  return { ...started, configFile };
}
