import { defineCommand } from "citty";
import { dropSealsOutside, loadLookupKeys } from "../../api/platform/credentials/lookup-keys.ts";
import { loadSecretRing, retireStoredPreviousSecrets, rotateStoredSecret } from "../../api/platform/secret-ring.ts";
import { AdminError, withDatabase } from "./context.ts";
import { say } from "./terminal.ts";

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
          "Store a new server secret in the secret file beside the embedded database; the old one stays accepted as a previous key, so codes and links made before keep working. Then restart every instance.",
      },
      run: () =>
        withDatabase(async ({ database, config }) => {
          if (config.serverSecret) {
            // The stored secret is not in use then: rotating it would change nothing and mislead.
            throw new AdminError(
              "SERVER_SECRET is set in the environment, so the stored secret is not in use. Rotate by environment instead: add the current SERVER_SECRET to the front of SERVER_SECRET_PREVIOUS (comma-separated), set a new SERVER_SECRET of at least 32 characters (e.g. `openssl rand -base64 32`), and restart every instance.",
            );
          }
          const { path } = database;
          if (path === undefined)
            throw new AdminError(
              "A remote database keeps no server secret: it comes from SERVER_SECRET, so rotate by environment (see `secret --help` and the runbook).",
            );
          const rotation = await rotateStoredSecret({ client: database.client, path });
          // The database's lookup key gets its copy sealed under the new secret now (opened with the
          // old one, still a previous key), so retiring the old one later never loses it.
          await loadLookupKeys(database.client, await loadSecretRing(database, config));
          const kept = rotation.previousKept;
          say(
            `Stored a new server secret in ${rotation.file}. It now keeps ${kept} previous key${kept === 1 ? "" : "s"}, still accepted for credit codes and download links made before this rotation.`,
          );
          say(
            `${RESTART} Until then an instance signs with the old secret and refuses codes and links made with the new one.`,
          );
          say(
            "Only if the old secret leaked: `secret retire-previous` drops the previous keys (that voids what was made with them).",
          );
        }),
    }),
    "retire-previous": defineCommand({
      meta: {
        name: "retire-previous",
        description:
          "Drop the stored previous keys (the secret file's, or those a remote database still holds from before it): credit codes and download links issued before the last rotation stop working.",
      },
      run: () =>
        withDatabase(async ({ database, config, lookupKeys }) => {
          // Sealed under the current secret before anything is dropped (a no-op when it already is).
          await lookupKeys();
          const dropped = await retireStoredPreviousSecrets(database);
          // A retired secret (often retired because it leaked) must not open the lookup key of later copies.
          await dropSealsOutside(database.client, await loadSecretRing(database, config));
          if (dropped === 0) say("There were no stored previous keys; nothing changed.");
          else {
            say(`Dropped ${dropped} stored previous key${dropped === 1 ? "" : "s"}.`);
            say(
              `Warning: credit codes and download links issued before the last rotation stop working (unknown code, 410 link-invalid). ${RESTART}`,
            );
          }
          const fromEnv = config.serverSecretPrevious.length;
          if (fromEnv > 0)
            say(
              `SERVER_SECRET_PREVIOUS still holds ${fromEnv} key${fromEnv === 1 ? "" : "s"}: remove it from every instance's environment to retire ${fromEnv === 1 ? "it" : "them"} too.`,
            );
        }),
    }),
  },
});
