// Staff CLI: `npm run admin -- <command> …`; every command answers --help.
import { defineCommand, runMain } from "citty";
import { agentsCommand, tokensCommand, trustCommand } from "./admin/agents.ts";
import { backupCommand } from "./admin/backup.ts";
import { creditsCommand } from "./admin/credits.ts";
import { outboxCommand } from "./admin/outbox.ts";
import { secretCommand } from "./admin/secret.ts";
import { storeCommands } from "./admin/store.ts";
import { switchesCommand } from "./admin/switches.ts";
import { waitlistsCommand } from "./admin/waitlists.ts";

const main = defineCommand({
  meta: { name: "admin", description: "Staff tools for the running service's database (DATABASE_URL)." },
  subCommands: {
    switches: switchesCommand,
    tokens: tokensCommand,
    agents: agentsCommand,
    trust: trustCommand,
    waitlists: waitlistsCommand,
    credits: creditsCommand,
    orders: storeCommands.orders,
    entitlements: storeCommands.entitlements,
    outbox: outboxCommand,
    secret: secretCommand,
    backup: backupCommand,
  },
});

// `npm run admin -- tokens list | head` closes the pipe early; that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

await runMain(main);
