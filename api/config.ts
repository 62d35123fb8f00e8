import { resolve } from "node:path";
import { z } from "zod";
import type { BuildConfig } from "../src/build/build-config.ts";
import { chromiumPath } from "../src/lib/chromium.ts";
import { resolveSiteUrls, SiteUrlEnvSchema } from "../src/lib/site-urls.ts";

const optionalString = z.preprocess((value) => (value === "" ? undefined : value), z.string().optional());
const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .optional()
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** A comma-separated list, each item trimmed, empty items dropped. */
const commaSeparated = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

// An Ed25519 private key's 32 bytes in base64url, unpadded, as a JWK's `d` (RFC 8037 §2).
const ED25519_SEED = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
const ED25519_SEED_MESSAGE = "must be an Ed25519 key: 32 random bytes, base64url (43 characters)";

const EnvSchema = SiteUrlEnvSchema.extend({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DIST_DIR: z.string().min(1).default("dist"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/, "must start with file:, libsql://, https:// or wss://")
    .default("file:./data/service.db"),
  DATABASE_AUTH_TOKEN: optionalString,
  /**
   * How long a statement waits for a locked database before failing (the wait never blocks the
   * event loop), and how long one request to a libSQL server may take.
   */
  DATABASE_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int()
    .min(100)
    .max(60_000)
    .default(5_000),
  SERVER_SECRET: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  /**
   * Earlier SERVER_SECRETs, comma-separated, newest first: still accepted for credit codes and
   * download links made before a rotation. The message never quotes a secret, only its position.
   */
  SERVER_SECRET_PREVIOUS: commaSeparated.superRefine((secrets, context) => {
    secrets.forEach((secret, index) => {
      if (secret.length < 32)
        context.addIssue({
          code: "custom",
          message: `secret ${index + 1} of ${secrets.length} is shorter than 32 characters; each must be at least 32 characters`,
        });
    });
  }),
  /** The crawler's Ed25519 signing key (32 bytes, base64url); generated beside an embedded database when unset. */
  BOT_SIGNING_KEY: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().regex(ED25519_SEED, ED25519_SEED_MESSAGE).optional(),
  ),
  /** Earlier BOT_SIGNING_KEYs, comma-separated: still published in the key directory until removed. */
  BOT_SIGNING_KEY_PREVIOUS: commaSeparated.pipe(z.array(z.string().regex(ED25519_SEED, ED25519_SEED_MESSAGE))),
  RATE_LIMIT_STORE: z.enum(["memory", "database"]).default("memory"),
  /** Overrides of named limits: `checks=10/60,waitlist=5/60` (requests per seconds). */
  RATE_LIMITS: z
    .string()
    .regex(/^$|^[a-z-]+=\d+\/\d+(,[a-z-]+=\d+\/\d+)*$/, "must look like checks=10/60,waitlist=5/60")
    .default(""),
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  TRUST_PROXY: booleanFlag,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** The login name, recorded as who made a staff change unless `--by` says otherwise. */
  USER: z.string().min(1).default("staff"),
  /**
   * `text`: a plain-text start banner for the person at the terminal, then JSON logs; `json`: every
   * line on stdout is JSON, the banner included (what log collectors want; the default in production).
   */
  LOG_FORMAT: z.enum(["text", "json"]).optional(),
  /**
   * How long an instance keeps a token's owner in memory (api/platform/auth/token-owner-cache.ts).
   * An agent's writes through one instance are seen by that instance at once, by the others within
   * this: behind a front that routes by token (`npm run cluster`'s nginx) that is read-your-writes;
   * behind a balancer that cannot, 0 reads the owner from the database on every request instead.
   */
  TOKEN_CACHE_MS: z.coerce
    .number({ error: "must be a whole number of milliseconds" })
    .int()
    .min(0)
    .max(1_000)
    .default(1_000),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number({ error: "must be a number of bytes" })
    .int()
    .min(1_024)
    .max(10_485_760)
    .default(65_536),
  PRIVATE_FILES_DIR: z.string().min(1).default("content/files"),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.url({ protocol: /^https?$/ }).optional(),
  ),
  /** How long one call to the payment provider may take before it counts as failed (503). */
  STRIPE_TIMEOUT_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int()
    .min(100)
    .max(80_000)
    .default(10_000),
  SMTP_URL: z.preprocess((value) => (value === "" ? undefined : value), z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.preprocess((value) => (value === "" ? undefined : value), z.string().min(3).optional()),
  CHECKS_ALLOWED_TARGETS: z.string().default(""),
  /** `host[:port],…` whose OAuth client ID metadata documents may be fetched although private (tests); refused in production. */
  OAUTH_CIMD_ALLOWED_TARGETS: z.string().default(""),
  /** A PEM file of extra certificate authorities, trusted only for OAUTH_CIMD_ALLOWED_TARGETS; refused in production. */
  OAUTH_CIMD_CA_FILE: optionalString,
  /** The Chromium binary that renders pages for rendered checks (`render: true`); Debian's by default. */
  CHROMIUM_PATH: optionalString,
  /** Monitor checks one instance runs at once; each is a whole readiness check (about 45 requests). */
  MONITORS_CONCURRENCY: z.coerce.number({ error: "must be a whole number" }).int().min(1).max(64).default(4),
  /** How often each instance looks for due monitors; 0 runs none (`npm run admin -- monitors run-due` still does). */
  MONITORS_INTERVAL_MS: z.coerce
    .number({ error: "must be a number of milliseconds" })
    .int()
    .min(0)
    .max(86_400_000)
    .default(30_000),
});
export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env["NODE_ENV"];
  host: string;
  port: number;
  siteUrl: string;
  docsUrl: string;
  root: string;
  distDir: string;
  privateFilesDir: string;
  database: { url: string; authToken: string | undefined; timeoutMs: number };
  serverSecret: string | undefined;
  /** From SERVER_SECRET_PREVIOUS; joined with the database's previous keys into the ring (api/platform/secret-ring.ts). */
  serverSecretPrevious: string[];
  /** BOT_SIGNING_KEY and BOT_SIGNING_KEY_PREVIOUS: the crawler's signing keys (api/platform/signing/signing-keys.ts). */
  botSigningKey: string | undefined;
  botSigningKeyPrevious: string[];
  rateLimit: { store: "memory" | "database"; overrides: Record<string, { limit: number; windowSeconds: number }> };
  trustProxy: boolean;
  logLevel: Env["LOG_LEVEL"];
  logFormat: "text" | "json";
  bodyLimitBytes: number;
  tokenCacheMs: number;
  stripe: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    apiBase: string | undefined;
    timeoutMs: number;
  };
  mail: { smtpUrl: string | undefined; from: string };
  checksAllowedTargets: string[];
  /** Client ID metadata documents (api/oauth/): the test-only allowance and the extra CA trusted for it. */
  oauth: { cimdAllowedTargets: string[]; cimdCaFile: string | undefined };
  /** The browser rendered checks drive (CHROMIUM_PATH, else Debian's /usr/bin/chromium); missing, they are n/a. */
  chromiumPath: string;
  /** Scheduled re-checks: how many at once per instance, and how often to look for due ones (0: never). */
  monitors: { concurrency: number; intervalMs: number };
  /** Who runs the staff CLI (USER), for the record of a change. */
  staffUser: string;
}

export class ConfigError extends Error {}

export type Environment = Record<string, string | undefined>;

/** Every problem at once: a start that fails should fail only once. */
function configError(problems: string[]): ConfigError {
  return new ConfigError(`Invalid configuration; fix these environment variables:\n${problems.join("\n")}`);
}

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `  ${String(issue.path[0] ?? "environment")}: ${issue.message}`);
}

/** Rules across variables, read from the raw environment so they are reported alongside the others. */
function productionProblems(env: Environment): string[] {
  if (env.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  if (env.CHECKS_ALLOWED_TARGETS?.trim())
    problems.push(
      "  CHECKS_ALLOWED_TARGETS: must be empty in production (it lets the checker reach private addresses)",
    );
  if (env.STRIPE_API_BASE)
    problems.push("  STRIPE_API_BASE: must not be set in production (it points payments at a fake)");
  if (env.OAUTH_CIMD_ALLOWED_TARGETS?.trim())
    problems.push("  OAUTH_CIMD_ALLOWED_TARGETS: must be empty in production (it lets OAuth fetch private addresses)");
  if (env.OAUTH_CIMD_CA_FILE)
    problems.push(
      "  OAUTH_CIMD_CA_FILE: must not be set in production (it trusts a certificate authority of your own)",
    );
  return problems;
}

/** What this configuration allows but should not be left so; the server logs each as a warning at start. */
export function configurationWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.env === "production" && !config.serverSecret)
    warnings.push(
      "SERVER_SECRET is not set: download links and credit codes are signed with a secret generated into a file beside the database (see /docs/operations/runbook#the-server-secret). Set SERVER_SECRET (at least 32 characters, from your secret store) so the key lives with your other secrets and every instance shares it; the generated one stays accepted as a previous key.",
    );
  return warnings;
}

/** Parses the environment once; every invalid variable is named in one message. */
export function loadConfig(env: Environment = process.env, root: string = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = [...(parsed.success ? [] : issuesOf(parsed.error)), ...productionProblems(env)];
  if (!parsed.success || problems.length > 0) throw configError(problems);
  const e = parsed.data;
  const { siteUrl, docsUrl } = resolveSiteUrls(e);
  const listed = (value: string) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  const overrides: Config["rateLimit"]["overrides"] = {};
  for (const item of e.RATE_LIMITS.split(",").filter(Boolean)) {
    const [name, rule] = item.split("=") as [string, string];
    const [limit, windowSeconds] = rule.split("/").map(Number) as [number, number];
    overrides[name] = { limit, windowSeconds };
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    siteUrl,
    docsUrl,
    root,
    distDir: resolve(root, e.DIST_DIR),
    privateFilesDir: resolve(root, e.PRIVATE_FILES_DIR),
    database: { url: e.DATABASE_URL, authToken: e.DATABASE_AUTH_TOKEN, timeoutMs: e.DATABASE_TIMEOUT_MS },
    serverSecret: e.SERVER_SECRET,
    serverSecretPrevious: e.SERVER_SECRET_PREVIOUS,
    botSigningKey: e.BOT_SIGNING_KEY,
    botSigningKeyPrevious: e.BOT_SIGNING_KEY_PREVIOUS,
    rateLimit: { store: e.RATE_LIMIT_STORE, overrides },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === "production" ? "json" : "text"),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    tokenCacheMs: e.TOKEN_CACHE_MS,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
      timeoutMs: e.STRIPE_TIMEOUT_MS,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `no-reply@${new URL(siteUrl).hostname}` },
    checksAllowedTargets: listed(e.CHECKS_ALLOWED_TARGETS),
    oauth: {
      cimdAllowedTargets: listed(e.OAUTH_CIMD_ALLOWED_TARGETS),
      cimdCaFile: e.OAUTH_CIMD_CA_FILE ? resolve(root, e.OAUTH_CIMD_CA_FILE) : undefined,
    },
    chromiumPath: chromiumPath({ CHROMIUM_PATH: e.CHROMIUM_PATH }),
    monitors: { concurrency: e.MONITORS_CONCURRENCY, intervalMs: e.MONITORS_INTERVAL_MS },
    staffUser: e.USER,
  };
}

const BuildEnvSchema = SiteUrlEnvSchema.extend({
  /** Where live URLs and the API are proxied to when the static part is on a CDN. */
  API_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  DIST_DIR: z.string().min(1).default("dist"),
});

/** The build's settings (`npm run build`), parsed like the server's: every bad variable named at once. */
export function loadBuildConfig(env: Environment = process.env, root: string = process.cwd()): BuildConfig {
  const parsed = BuildEnvSchema.safeParse(env);
  if (!parsed.success) throw configError(issuesOf(parsed.error));
  const { siteUrl, docsUrl } = resolveSiteUrls(parsed.data);
  return {
    root,
    contentRoot: root,
    outDir: resolve(root, parsed.data.DIST_DIR),
    siteUrl,
    docsUrl,
    apiOrigin: (parsed.data.API_ORIGIN ?? siteUrl).replace(/\/+$/, ""),
  };
}
