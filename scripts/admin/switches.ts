import { defineCommand } from "citty";
import { listSwitches, setSwitch } from "../../api/platform/state/switches-sql.ts";
import { SWITCH_NAMES, type SwitchName } from "../../src/lib/switches.ts";
import { AdminError, printRows, withDatabase } from "./context.ts";
import { say } from "./terminal.ts";

export const switchesCommand = defineCommand({
  meta: {
    name: "switches",
    description: "Open and close forms and features without a restart (every instance sees a change within a second).",
  },
  subCommands: {
    list: defineCommand({
      meta: { name: "list", description: "Every switch, whether it is on, and who changed it last." },
      args: { json: { type: "boolean", description: "Print JSON" } },
      run: ({ args }) => withDatabase(async ({ client }) => printRows(await listSwitches(client), args.json === true)),
    }),
    set: defineCommand({
      meta: { name: "set", description: `Turn a switch on or off. Switches: ${SWITCH_NAMES.join(", ")}.` },
      args: {
        name: { type: "positional", description: "The switch", required: true },
        state: { type: "positional", description: "on or off", required: true },
        by: {
          type: "string",
          description: "Who is changing it (for the record); the login name (USER) by default",
        },
      },
      run: ({ args }) =>
        withDatabase(async ({ client, config }) => {
          if (!SWITCH_NAMES.includes(args.name as SwitchName))
            throw new AdminError(`Unknown switch ${args.name}; switches: ${SWITCH_NAMES.join(", ")}`);
          if (args.state !== "on" && args.state !== "off") throw new AdminError("The state must be on or off");
          await setSwitch(
            client,
            args.name as SwitchName,
            args.state === "on",
            args.by ?? config.staffUser,
            new Date().toISOString(),
          );
          say(`${args.name} is now ${args.state}.`);
        }),
    }),
  },
});
