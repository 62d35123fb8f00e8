import { writeFile } from "node:fs/promises";
import { defineCommand } from "citty";
import { countRows, exportAgentWaitlist, exportSignups } from "../../api/waitlists/sql.ts";
import { fieldsOf, printRows, withDatabase } from "./context.ts";
import { safeLines, say, write } from "./terminal.ts";

/** RFC 4180 CSV; cells that a spreadsheet would run as formulas are prefixed with a quote (OWASP CSV injection). */
export function toCsv(typed: readonly object[]): string {
  const rows = typed.map(fieldsOf);
  if (rows.length === 0) return "";
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => {
    let text = value === null || value === undefined ? "" : Array.isArray(value) ? value.join("; ") : String(value);
    if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `${[columns.join(","), ...rows.map((row) => columns.map((column) => cell(row[column])).join(","))].join("\r\n")}\r\n`;
}

export const waitlistsCommand = defineCommand({
  meta: { name: "waitlists", description: "Export and count the people's and the agents' waiting lists." },
  subCommands: {
    export: defineCommand({
      meta: {
        name: "export",
        description:
          "Export one list as CSV or JSON (stdout, or --out FILE). It contains personal data: handle it as the privacy policy says.",
      },
      args: {
        list: { type: "enum", options: ["people", "agents"], description: "people or agents", required: true },
        format: { type: "enum", options: ["csv", "json"], description: "csv or json", default: "csv" },
        out: { type: "string", description: "Write to this file instead of stdout" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const rows: readonly object[] =
            args.list === "people" ? await exportSignups(client) : await exportAgentWaitlist(client);
          const text = args.format === "json" ? `${JSON.stringify(rows, null, 2)}\n` : toCsv(rows);
          if (args.out) {
            // The same characters as on a terminal: whoever reads the file reads it on one too.
            await writeFile(args.out, safeLines(text), { mode: 0o600 });
            say(`Wrote ${rows.length} ${args.list === "people" ? "signups" : "agent entries"} to ${args.out}.`);
          } else {
            write(text);
          }
        }),
    }),
    count: defineCommand({
      meta: { name: "count", description: "How many people, agents and survey answers there are." },
      args: { json: { type: "boolean", description: "Print JSON" } },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const counts = {
            people: await countRows(client, "waitlist_signups"),
            agents: await countRows(client, "agent_waitlist_entries"),
            survey_answers: await countRows(client, "agent_survey_answers"),
          };
          if (args.json) say(JSON.stringify(counts));
          else printRows([counts], false);
        }),
    }),
  },
});
