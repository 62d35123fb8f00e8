import { type Profile, ProfileSchema } from "../../../src/schemas/report.ts";
import { type MonitorFrequency, MonitorFrequencySchema } from "../../../src/schemas/requests/monitors.ts";
import type { Row, Sql, SqlStatement } from "../../db/sql.ts";

export type MonitorState = "pending" | "active" | "stopped";

export interface MonitorRow {
  id: string;
  key_hash: string;
  origin: string;
  host: string;
  input: string;
  profile: Profile[] | null;
  frequency: MonitorFrequency;
  email: string | null;
  agent_id: string | null;
  state: MonitorState;
  created_at: string;
  confirmed_at: string | null;
  stopped_at: string | null;
  stop_reason: string | null;
  next_run_at: string | null;
  claims: number;
}

/** A monitor to insert: who owns it and what it watches. */
export type NewMonitor = Pick<
  MonitorRow,
  "id" | "key_hash" | "origin" | "host" | "input" | "profile" | "frequency" | "created_at"
> & { owner: { email: string } | { agent_id: string } };

/** A nullable text column. */
export const optionalText = (value: unknown) => (value === null || value === undefined ? null : String(value));

export function toMonitor(row: Row): MonitorRow {
  const state = String(row.state);
  return {
    id: String(row.id),
    key_hash: String(row.key_hash),
    origin: String(row.origin),
    host: String(row.host),
    input: String(row.input),
    profile: row.profile === null ? null : ProfileSchema.array().parse(JSON.parse(String(row.profile))),
    frequency: MonitorFrequencySchema.parse(row.frequency),
    email: optionalText(row.email),
    agent_id: optionalText(row.agent_id),
    state: state === "active" || state === "stopped" ? state : "pending",
    created_at: String(row.created_at),
    confirmed_at: optionalText(row.confirmed_at),
    stopped_at: optionalText(row.stopped_at),
    stop_reason: optionalText(row.stop_reason),
    next_run_at: optionalText(row.next_run_at),
    claims: Number(row.claims),
  };
}

const COLUMNS =
  "id, key_hash, origin, host, input, profile, frequency, email, agent_id, state, created_at, next_run_at";

function values(monitor: NewMonitor, state: MonitorState, nextRunAt: string | null) {
  return [
    monitor.id,
    monitor.key_hash,
    monitor.origin,
    monitor.host,
    monitor.input,
    monitor.profile === null ? null : JSON.stringify(monitor.profile),
    monitor.frequency,
    "email" in monitor.owner ? monitor.owner.email : null,
    "agent_id" in monitor.owner ? monitor.owner.agent_id : null,
    state,
    monitor.created_at,
    nextRunAt,
  ];
}

/**
 * A person's monitor, pending until its address is confirmed: one statement for the caller's batch.
 * The same address and origin again is the same row; a stopped one becomes pending again (its
 * history kept), with a new week to confirm it. What it already was is otherwise left alone. Nothing
 * is written once the address has `pendingLimit` requests waiting for confirmation: a stranger
 * cannot pile sites onto someone's address.
 */
export function requestEmailMonitorStatement(monitor: NewMonitor, pendingLimit: number): SqlStatement {
  if (!("email" in monitor.owner)) throw new Error("a person's monitor needs an address");
  return {
    sql: `INSERT INTO monitors (${COLUMNS})
          SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
          WHERE (SELECT COUNT(*) FROM monitors WHERE email = ? AND state = 'pending') < ?
          ON CONFLICT (email, origin) WHERE email IS NOT NULL DO UPDATE SET
            state = 'pending', created_at = excluded.created_at, stopped_at = NULL, stop_reason = NULL,
            frequency = excluded.frequency, profile = excluded.profile
          WHERE monitors.state = 'stopped'`,
    args: [...values(monitor, "pending", null), monitor.owner.email, pendingLimit],
  };
}

/** The address's monitors waiting for confirmation and asked for after `since`, oldest first. */
export async function listPendingForEmail(sql: Sql, email: string, since: string): Promise<MonitorRow[]> {
  const result = await sql.execute({
    sql: "SELECT * FROM monitors WHERE email = ? AND state = 'pending' AND created_at > ? ORDER BY created_at, id",
    args: [email, since],
  });
  return result.rows.map(toMonitor);
}

/**
 * The monitor whose runs a host's badge shows: of the active ones that watch `origin` (any origin
 * when `null`) with the profile inferred, the one confirmed first (an agent's is confirmed when it is
 * created). Someone who watches the same host later, or with a profile of their choosing, never
 * changes it.
 */
export async function findBadgeMonitor(sql: Sql, host: string, origin: string | null): Promise<MonitorRow | null> {
  const row = await sql.queryOne({
    sql: `SELECT * FROM monitors WHERE host = ? AND state = 'active' AND profile IS NULL ${origin === null ? "" : "AND origin = ?"}
          ORDER BY COALESCE(confirmed_at, created_at), id LIMIT 1`,
    args: origin === null ? [host] : [host, origin],
  });
  return row ? toMonitor(row) : null;
}

/**
 * An agent's monitor, scheduled at once, unless the agent already watches `limit` sites: `null` when
 * nothing was inserted (it exists, or the limit is reached). The count and the insert are one statement.
 */
export async function insertAgentMonitor(sql: Sql, monitor: NewMonitor, limit: number): Promise<MonitorRow | null> {
  if (!("agent_id" in monitor.owner)) throw new Error("an agent's monitor needs its agent");
  const row = await sql.queryOne({
    sql: `INSERT INTO monitors (${COLUMNS})
          SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
          WHERE (SELECT COUNT(*) FROM monitors WHERE agent_id = ? AND state = 'active') < ?
          ON CONFLICT (agent_id, origin) WHERE agent_id IS NOT NULL DO NOTHING
          RETURNING *`,
    args: [...values(monitor, "active", monitor.created_at), monitor.owner.agent_id, limit],
  });
  return row ? toMonitor(row) : null;
}

export async function findMonitor(sql: Sql, id: string): Promise<MonitorRow | null> {
  const row = await sql.queryOne({ sql: "SELECT * FROM monitors WHERE id = ?", args: [id] });
  return row ? toMonitor(row) : null;
}

export async function findMonitorByKey(sql: Sql, keyHash: string): Promise<MonitorRow | null> {
  const row = await sql.queryOne({ sql: "SELECT * FROM monitors WHERE key_hash = ?", args: [keyHash] });
  return row ? toMonitor(row) : null;
}

export async function findEmailMonitor(sql: Sql, email: string, origin: string): Promise<MonitorRow | null> {
  const row = await sql.queryOne({
    sql: "SELECT * FROM monitors WHERE email = ? AND origin = ?",
    args: [email, origin],
  });
  return row ? toMonitor(row) : null;
}

export async function findAgentMonitor(sql: Sql, agentId: string, origin: string): Promise<MonitorRow | null> {
  const row = await sql.queryOne({
    sql: "SELECT * FROM monitors WHERE agent_id = ? AND origin = ?",
    args: [agentId, origin],
  });
  return row ? toMonitor(row) : null;
}

export async function listAgentMonitors(sql: Sql, agentId: string): Promise<MonitorRow[]> {
  const result = await sql.execute({
    sql: "SELECT * FROM monitors WHERE agent_id = ? ORDER BY created_at, id",
    args: [agentId],
  });
  return result.rows.map(toMonitor);
}

export async function listMonitors(sql: Sql, options: { state?: MonitorState; limit: number }): Promise<MonitorRow[]> {
  const result = await sql.execute({
    sql: `SELECT * FROM monitors ${options.state ? "WHERE state = ?" : ""} ORDER BY created_at DESC LIMIT ?`,
    args: options.state ? [options.state, options.limit] : [options.limit],
  });
  return result.rows.map(toMonitor);
}

/**
 * Confirms a pending monitor and schedules its first run now, unless its address already has `limit`
 * active monitors: the count and the change are one statement, so two confirmations at once cannot
 * both pass a limit of one left. `null` when nothing changed (the caller reads the row to say why).
 */
export async function confirmMonitor(sql: Sql, id: string, at: string, limit: number): Promise<MonitorRow | null> {
  const row = await sql.queryOne({
    sql: `UPDATE monitors SET state = 'active', confirmed_at = ?, next_run_at = ?
          WHERE id = ? AND state = 'pending'
            AND (SELECT COUNT(*) FROM monitors AS others WHERE others.email = monitors.email AND others.state = 'active') < ?
          RETURNING *`,
    args: [at, at, id, limit],
  });
  return row ? toMonitor(row) : null;
}

/** Stops a monitor (its history stays readable); `null` when it was already stopped or does not exist. */
export async function stopMonitor(sql: Sql, id: string, at: string, reason: string): Promise<MonitorRow | null> {
  const row = await sql.queryOne({
    sql: `UPDATE monitors SET state = 'stopped', stopped_at = ?, stop_reason = ?, next_run_at = NULL, lease_until = NULL
          WHERE id = ? AND state != 'stopped' RETURNING *`,
    args: [at, reason, id],
  });
  return row ? toMonitor(row) : null;
}

/**
 * Requests left unconfirmed since before `before` (a week after they were asked for): one never
 * confirmed is forgotten; one that was watched before (stopped, then asked for again) is stopped
 * again with its history, so nobody's request can make a monitor's history go away.
 */
export async function sweepUnconfirmed(
  sql: Sql,
  before: string,
  at: string,
): Promise<{ removed: number; stopped: number }> {
  const [stopped, removed] = await sql.batch(
    [
      {
        sql: `UPDATE monitors SET state = 'stopped', stopped_at = ?, stop_reason = 'not confirmed again'
              WHERE state = 'pending' AND created_at <= ? AND confirmed_at IS NOT NULL`,
        args: [at, before],
      },
      {
        sql: "DELETE FROM monitors WHERE state = 'pending' AND created_at <= ? AND confirmed_at IS NULL AND NOT EXISTS (SELECT 1 FROM monitor_runs WHERE monitor_id = monitors.id)",
        args: [before],
      },
    ],
    "write",
  );
  return { removed: removed?.rowsAffected ?? 0, stopped: stopped?.rowsAffected ?? 0 };
}

/** Active monitors of this address: what the free plan's limit counts. */
export async function countActiveForEmail(sql: Sql, email: string): Promise<number> {
  const row = await sql.queryOne({
    sql: "SELECT COUNT(*) AS n FROM monitors WHERE email = ? AND state = 'active'",
    args: [email],
  });
  return Number(row?.n ?? 0);
}
