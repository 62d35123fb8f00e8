// Staff CLI: `npm run admin -- <command> …`; every command answers --help.
import { defineCommand, runMain } from "citty";

const main = defineCommand({
  meta: { name: "admin", description: "Staff tools for the running service's database (DATABASE_URL)." },
  // Each command loads its own modules only when called: staff wait for one command's imports
  // (the libSQL binding, Stripe's SDK for the store commands), not every command's.
  subCommands: {
    switches: () => import("./admin/switches.ts").then((module) => module.switchesCommand),
    tokens: () => import("./admin/agents.ts").then((module) => module.tokensCommand),
    agents: () => import("./admin/agents.ts").then((module) => module.agentsCommand),
    trust: () => import("./admin/agents.ts").then((module) => module.trustCommand),
    waitlists: () => import("./admin/waitlists.ts").then((module) => module.waitlistsCommand),
    credits: () => import("./admin/credits.ts").then((module) => module.creditsCommand),
    orders: () => import("./admin/store.ts").then((module) => module.storeCommands.orders),
    entitlements: () => import("./admin/store.ts").then((module) => module.storeCommands.entitlements),
    outbox: () => import("./admin/outbox.ts").then((module) => module.outboxCommand),
    monitors: () => import("./admin/monitors.ts").then((module) => module.monitorsCommand),
    secret: () => import("./admin/secret.ts").then((module) => module.secretCommand),
    "signing-key": () => import("./admin/signing-key.ts").then((module) => module.signingKeyCommand),
    oauth: () => import("./admin/oauth.ts").then((module) => module.oauthCommand),
    backup: () => import("./admin/backup.ts").then((module) => module.backupCommand),
  },
});

// `npm run admin -- tokens list | head` closes the pipe early; that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

await runMain(main);
