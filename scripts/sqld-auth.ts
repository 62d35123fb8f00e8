// `npx node scripts/sqld-auth.ts <dir>`: a key pair for sqld's `--auth-jwt-key-file` and a token the
// instances send as DATABASE_AUTH_TOKEN (scripts/lib/sqld-auth.ts). Made once, kept in <dir> (0700,
// files 0600); run again, it prints the same token. `npm run cluster` does the same for itself.
import { resolve } from "node:path";
import { defineCommand, runMain } from "citty";
import { sqldAuthIn } from "./lib/sqld-auth.ts";

const command = defineCommand({
  meta: { name: "sqld-auth", description: "A key for sqld --auth-jwt-key-file and a token for DATABASE_AUTH_TOKEN" },
  args: { dir: { type: "positional", required: true, description: "Where the key pair and the token are kept" } },
  run: ({ args }) => {
    const auth = sqldAuthIn(resolve(args.dir));
    console.log(
      [
        `sqld:      --auth-jwt-key-file ${auth.publicKeyFile}   (the public key; copy it to sqld's host)`,
        `instances: DATABASE_AUTH_TOKEN=$(cat ${auth.tokenFile})   (keep it with SERVER_SECRET)`,
        "The private key stays in the same directory: it signs new tokens; sqld never needs it.",
      ].join("\n"),
    );
  },
});

await runMain(command);
