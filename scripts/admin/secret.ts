import { defineCommand } from "citty";
import { retireStoredPreviousSecrets, rotateStoredSecret } from "../../api/platform/secret-ring.ts";
import { AdminError, withDatabase } from "./context.ts";

// Neither command ever prints a secret: their output ends up in terminals, shell history and tickets.
const RESTART = "Restart every instance now: each reads the secrets only when it starts.";

export const secretCommand = defineCommand({
  meta: {
    name: "secret",
    description:
      "The server secret that keys credit codes and download links: rotate it, retire the previous keys (never prints a secret).",
  },
  subCommands: {
    rotate: defineCommand({
      meta: {
        name: "rotate",
        description:
          "Store a new server secret; the old one stays accepted as a previous key, so codes and links made before keep working. Then restart every instance.",
      },
      run: () =>
        withDatabase(async ({ client, config }) => {
          if (config.serverSecret) {
            // The database's secret is not in use then: rotating it would change nothing and mislead.
            throw new AdminError(
              "SERVER_SECRET is set in the environment, so the database's secret is not in use. Rotate by environment instead: add the current SERVER_SECRET to the front of SERVER_SECRET_PREVIOUS (comma-separated), set a new SERVER_SECRET of at least 32 characters (e.g. `openssl rand -base64 32`), and restart every instance.",
            );
          }
          const rotation = await rotateStoredSecret(client, new Date().toISOString());
          if (!rotation.rotated)
            throw new AdminError(
              "The stored secret changed while rotating (another rotation at the same time?); nothing was changed. Run it again.",
            );
          const kept = rotation.previousKept;
          console.log(
            `Stored a new server secret. The database now keeps ${kept} previous key${kept === 1 ? "" : "s"}, still accepted for credit codes and download links made before this rotation.`,
          );
          console.log(
            `${RESTART} Until then an instance signs with the old secret and refuses codes and links made with the new one.`,
          );
          console.log(
            "Only if the old secret leaked: `secret retire-previous` drops the previous keys (that voids what was made with them).",
          );
        }),
    }),
    "retire-previous": defineCommand({
      meta: {
        name: "retire-previous",
        description:
          "Drop the previous keys kept in the database: credit codes and download links issued before the last rotation stop working.",
      },
      run: () =>
        withDatabase(async ({ client, config }) => {
          const dropped = await retireStoredPreviousSecrets(client);
          if (dropped === 0) console.log("There were no previous keys in the database; nothing changed.");
          else {
            console.log(`Dropped ${dropped} previous key${dropped === 1 ? "" : "s"} from the database.`);
            console.log(
              `Warning: credit codes and download links issued before the last rotation stop working (unknown code, 410 link-invalid). ${RESTART}`,
            );
          }
          const fromEnv = config.serverSecretPrevious.length;
          if (fromEnv > 0)
            console.log(
              `SERVER_SECRET_PREVIOUS still holds ${fromEnv} key${fromEnv === 1 ? "" : "s"}: remove it from every instance's environment to retire ${fromEnv === 1 ? "it" : "them"} too.`,
            );
        }),
    }),
  },
});
