import { DEFAULT_SWITCHES, SWITCH_NAMES, type Switches, type SwitchName } from "../../../src/lib/switches.ts";
import type { Sql } from "../../db/sql.ts";

export interface SwitchRow {
  name: SwitchName;
  enabled: boolean;
  updated_at: string | null;
  updated_by: string | null;
}

/** Every switch: a row where staff set one, the default (on) otherwise. */
export async function listSwitches(client: Sql): Promise<SwitchRow[]> {
  const result = await client.execute("SELECT name, enabled, updated_at, updated_by FROM switches");
  const stored = new Map(result.rows.map((row) => [String(row.name), row]));
  return SWITCH_NAMES.map((name) => {
    const row = stored.get(name);
    return row
      ? {
          name,
          enabled: Number(row.enabled) === 1,
          updated_at: String(row.updated_at),
          updated_by: String(row.updated_by),
        }
      : { name, enabled: DEFAULT_SWITCHES[name], updated_at: null, updated_by: null };
  });
}

export async function readSwitches(client: Sql): Promise<Switches> {
  const switches = { ...DEFAULT_SWITCHES };
  for (const row of await listSwitches(client)) switches[row.name] = row.enabled;
  return switches;
}

export async function setSwitch(
  client: Sql,
  name: SwitchName,
  enabled: boolean,
  by: string,
  at: string,
): Promise<void> {
  await client.execute({
    sql: "INSERT INTO switches (name, enabled, updated_at, updated_by) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at, updated_by = excluded.updated_by",
    args: [name, enabled ? 1 : 0, at, by],
  });
}
