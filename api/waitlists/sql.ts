import type { Sql } from "../db/sql.ts";

export interface AgentWaitlistRow {
  id: string;
  agent_id: string;
  agent_name: string;
  agent_type: string;
  operator_type: string;
  principal_contact: string | null;
  use_cases: string[];
  capabilities: string[];
  tools_used: string[];
  consent_version: string;
  joined_at: string;
}

/**
 * One statement: it inserts, or does nothing when this registration already has an entry. `false`
 * means the entry exists (409); the primary key decides, so concurrent requests cannot both win.
 */
export async function insertAgentWaitlistEntry(client: Sql, entry: AgentWaitlistRow): Promise<boolean> {
  const result = await client.execute({
    sql: `INSERT INTO agent_waitlist_entries (id, agent_id, agent_name, agent_type, operator_type, principal_contact, use_cases, capabilities, tools_used, consent_version, joined_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (agent_id) DO NOTHING`,
    args: [
      entry.id,
      entry.agent_id,
      entry.agent_name,
      entry.agent_type,
      entry.operator_type,
      entry.principal_contact,
      JSON.stringify(entry.use_cases),
      JSON.stringify(entry.capabilities),
      JSON.stringify(entry.tools_used),
      entry.consent_version,
      entry.joined_at,
    ],
  });
  return result.rowsAffected === 1;
}

export async function insertSurveyAnswer(
  client: Sql,
  agentId: string,
  surveyVersion: string,
  answers: unknown,
  at: string,
): Promise<boolean> {
  const result = await client.execute({
    sql: "INSERT INTO agent_survey_answers (agent_id, survey_version, answers, answered_at) VALUES (?, ?, ?, ?) ON CONFLICT (agent_id) DO NOTHING",
    args: [agentId, surveyVersion, JSON.stringify(answers), at],
  });
  return result.rowsAffected === 1;
}

export interface SignupRow {
  email: string;
  name: string | null;
  interests: string[];
  consent_version: string;
  legend_terms_version: string | null;
  legend: boolean;
  at: string;
}

/**
 * The same single statement whether or not the address is listed, so the reply (and its timing)
 * cannot tell the two apart. A later signup can accept the legend terms; it never takes them back.
 */
export async function upsertSignup(client: Sql, signup: SignupRow): Promise<void> {
  await client.execute({
    sql: `INSERT INTO waitlist_signups (email, name, interests, consent_version, legend_terms_version, legend, signed_up_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (email) DO UPDATE SET
            legend = MAX(legend, excluded.legend),
            legend_terms_version = COALESCE(excluded.legend_terms_version, legend_terms_version),
            consent_version = excluded.consent_version,
            updated_at = excluded.updated_at`,
    args: [
      signup.email,
      signup.name,
      JSON.stringify(signup.interests),
      signup.consent_version,
      signup.legend_terms_version,
      signup.legend ? 1 : 0,
      signup.at,
      signup.at,
    ],
  });
}

export async function countRows(
  client: Sql,
  table: "agent_waitlist_entries" | "waitlist_signups" | "agent_survey_answers",
): Promise<number> {
  const result = await client.execute(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(result.rows[0]?.n ?? 0);
}

export async function exportAgentWaitlist(client: Sql): Promise<AgentWaitlistRow[]> {
  const result = await client.execute("SELECT * FROM agent_waitlist_entries ORDER BY joined_at");
  return result.rows.map((row) => ({
    id: String(row.id),
    agent_id: String(row.agent_id),
    agent_name: String(row.agent_name),
    agent_type: String(row.agent_type),
    operator_type: String(row.operator_type),
    principal_contact: row.principal_contact === null ? null : String(row.principal_contact),
    use_cases: JSON.parse(String(row.use_cases)) as string[],
    capabilities: JSON.parse(String(row.capabilities)) as string[],
    tools_used: JSON.parse(String(row.tools_used)) as string[],
    consent_version: String(row.consent_version),
    joined_at: String(row.joined_at),
  }));
}

export async function exportSignups(client: Sql): Promise<SignupRow[]> {
  const result = await client.execute("SELECT * FROM waitlist_signups ORDER BY signed_up_at");
  return result.rows.map((row) => ({
    email: String(row.email),
    name: row.name === null ? null : String(row.name),
    interests: JSON.parse(String(row.interests)) as string[],
    consent_version: String(row.consent_version),
    legend_terms_version: row.legend_terms_version === null ? null : String(row.legend_terms_version),
    legend: Number(row.legend) === 1,
    at: String(row.signed_up_at),
  }));
}
