import { existsSync } from "node:fs";
import { chmod, mkdir, open, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type Environment, loadConfig } from "../../api/config.ts";
import { WEBHOOK_LIMIT_BYTES } from "../../api/payments/webhook-route.ts";
import { nginxServerConfig } from "../../src/lib/nginx-conf.ts";
import type { BodyLimits } from "../../src/lib/nginx-problems.ts";
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

/** The body limits of API instances started with `env`, as the API defines them: what the front enforces. */
export function apiBodyLimits(env: Environment): BodyLimits {
  return { bodyLimitBytes: loadConfig(env).bodyLimitBytes, webhookLimitBytes: WEBHOOK_LIMIT_BYTES };
}

/**
 * Creates nginx's log files readable by their owner only, before nginx opens them: nginx creates a
 * missing log 0644 and leaves the mode of an existing one alone. A path on a request to the instances
 * may carry a secret (the access log redacts it, src/lib/nginx-log.ts); an address is personal data.
 */
async function createPrivateLogs(workDir: string): Promise<void> {
  for (const name of ["access.log", "error.log"]) {
    const file = join(workDir, name);
    await (await open(file, "a", 0o600)).close();
    await chmod(file, 0o600);
  }
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
  /** The instances' SITE_URL: the base of the problem types the front answers with itself. */
  siteUrl: string;
  /** The instances' body limits (`apiBodyLimits`), which the front enforces with the same 413. */
  bodyLimits: BodyLimits;
}): Promise<Started & { configFile: string; workDir: string }> {
  const binary = requireNginx();
  const workDir = resolve(options.workDir);
  const distDir = resolve(options.distDir);
  const routesFile = join(distDir, "nginx", "routes.conf");
  if (!existsSync(routesFile)) throw new Error(`${routesFile} is missing: build the site first (npm run build).`);
  // Left readable: nginx's workers (nobody, when it starts as root) keep request bodies under it.
  await mkdir(workDir, { recursive: true });
  await createPrivateLogs(workDir);
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
      siteUrl: options.siteUrl,
      bodyLimits: options.bodyLimits,
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
  return { ...started, configFile, workDir };
}
