/**
 * Who presented a bearer token: the token, its agent registration and the registration's standing, as
 * one database read finds them (api/agents/sql.ts). Auth decides on it; the agents feature reports it.
 */
export type Trust = "unverified" | "verified" | "trusted" | "suspended";
export const TRUST_LEVELS: readonly Trust[] = ["unverified", "verified", "trusted", "suspended"];

export interface Agent {
  id: string;
  agent_name: string;
  agent_type: string;
  operator_type: string;
  principal_contact: string | null;
  trust: Trust;
  registered_by: "api" | "staff";
  created_at: string;
}

export interface TokenOwner {
  tokenId: string;
  tokenHash: Uint8Array;
  scopes: string[];
  revoked: boolean;
  agent: Agent;
  waitlistJoinedAt: string | null;
  surveyAnsweredAt: string | null;
  surveyVersion: string | null;
  /** The agents' standing epoch when this was read, in the same statement (standing-epoch.ts). */
  standingEpoch: number;
  /** An OAuth access token's audience: the one resource it is good at (RFC 8707). Agent tokens have none. */
  audience?: string;
  /** When an OAuth access token stops working, in ms since the epoch. Agent tokens last until revoked. */
  expiresAt?: number;
  /** The OAuth client holding the token. */
  clientId?: string;
}
