import { defineCommand } from "citty";
import type { Config } from "../../api/config.ts";
import { filePath } from "../../api/db/database-path.ts";
import {
  loadSigningKeys,
  publishedKeys,
  retireStoredPreviousSigningKeys,
  rotateStoredSigningKey,
} from "../../api/platform/signing/signing-keys.ts";
import { AdminError, withConfig } from "./context.ts";
import { say } from "./terminal.ts";

// No command prints a private key: their output ends up in terminals, shell history and tickets.
const RESTART =
  "Restart every instance now: each reads the keys only when it starts, then signs with the current key and publishes every key in /.well-known/http-message-signatures-directory.";

/** The embedded database's file, or why these commands cannot change a key kept in the environment. */
function storedKeyPath(config: Config, verb: string): string {
  if (config.botSigningKey)
    throw new AdminError(
      `BOT_SIGNING_KEY is set in the environment, so the stored key is not in use. To ${verb} by environment: move the current BOT_SIGNING_KEY to the front of BOT_SIGNING_KEY_PREVIOUS (comma-separated), set a new BOT_SIGNING_KEY (32 random bytes, base64url), and restart every instance; remove a key from BOT_SIGNING_KEY_PREVIOUS to stop publishing it.`,
    );
  const path = filePath(config.database.url);
  if (path === undefined)
    throw new AdminError(
      "A remote database keeps no signing key: it comes from BOT_SIGNING_KEY, so rotate by environment (see `signing-key --help` and the runbook).",
    );
  return path;
}

export const signingKeyCommand = defineCommand({
  meta: {
    name: "signing-key",
    description:
      "The crawler's Web Bot Auth signing key (its requests are signed with it; site owners verify them with the published key directory): list, rotate, retire the previous keys. Never prints a private key.",
  },
  subCommands: {
    list: defineCommand({
      meta: { name: "list", description: "The published keys' ids (RFC 7638 thumbprints), current first." },
      run: () =>
        withConfig((config) => {
          const ring = loadSigningKeys(filePath(config.database.url), config);
          for (const [index, key] of publishedKeys(ring).entries())
            say(`${key.keyid}  ${index === 0 ? "current (signs requests)" : "previous (published only)"}`);
        }),
    }),
    rotate: defineCommand({
      meta: {
        name: "rotate",
        description:
          "Store a new signing key in the key file beside the embedded database; the old one stays published as a previous key, so verifiers holding a signature made just before still find its key. Then restart every instance.",
      },
      run: () =>
        withConfig(async (config) => {
          const rotation = await rotateStoredSigningKey(storedKeyPath(config, "rotate"));
          const kept = rotation.previousKept;
          say(
            `Stored a new signing key in ${rotation.file}. The directory will publish it with ${kept} previous key${kept === 1 ? "" : "s"}.`,
          );
          say(RESTART);
          say(
            "Once verifiers have refreshed the directory (it is cached for an hour), `signing-key retire-previous` stops publishing the old keys; do it at once only if a key leaked.",
          );
        }),
    }),
    "retire-previous": defineCommand({
      meta: {
        name: "retire-previous",
        description:
          "Stop publishing the stored previous keys: signatures made with them no longer verify once verifiers refresh the directory.",
      },
      run: () =>
        withConfig(async (config) => {
          const dropped = await retireStoredPreviousSigningKeys(storedKeyPath(config, "retire keys"));
          if (dropped === 0) say("There were no stored previous keys; nothing changed.");
          else say(`Dropped ${dropped} stored previous key${dropped === 1 ? "" : "s"}. ${RESTART}`);
          const fromEnv = config.botSigningKeyPrevious.length;
          if (fromEnv > 0)
            say(
              `BOT_SIGNING_KEY_PREVIOUS still holds ${fromEnv} key${fromEnv === 1 ? "" : "s"}: remove it from every instance's environment to stop publishing ${fromEnv === 1 ? "it" : "them"} too.`,
            );
        }),
    }),
  },
});
