import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Sql } from "../../db/sql.ts";
import { hashToken } from "../../platform/auth/agent-token.ts";
import { consumeRecord, destroyRecord, findRecord, revokeRecordsOfGrant, upsertRecord } from "./records-sql.ts";

/** Models whose records are credentials: revoked in place rather than deleted (records-sql.ts). */
const CREDENTIALS = new Set([
  "AccessToken",
  "RefreshToken",
  "AuthorizationCode",
  "ClientCredentials",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "RegistrationAccessToken",
  "InitialAccessToken",
  "PushedAuthorizationRequest",
]);

/** What a stored client secret looks like: its SHA-256, never the secret (compared in provider.ts). */
export const HASHED_SECRET_PREFIX = "sha256:";

export function hashClientSecret(secret: string): string {
  return `${HASHED_SECRET_PREFIX}${hashToken(secret).toString("base64url")}`;
}

function parsePayload(text: string): AdapterPayload {
  // Written by upsert from the library's own payload: the same shape comes back.
  return JSON.parse(text) as AdapterPayload;
}

export interface AdapterDeps {
  db: () => Sql;
  /** Unix seconds. */
  now: () => number;
}

/**
 * oidc-provider's storage over libSQL (its Adapter interface, example/my_adapter.js): one table for
 * every model, keyed by the SHA-256 of the record's id, so the database holds no code, token or
 * client secret that works (DESIGN §6).
 */
export function libsqlAdapter(deps: AdapterDeps): (model: string) => Adapter {
  return (model) => ({
    async upsert(id, payload, expiresIn) {
      const stored: AdapterPayload =
        model === "Client" && typeof payload.client_secret === "string"
          ? { ...payload, client_secret: hashClientSecret(payload.client_secret) }
          : payload;
      const now = deps.now();
      await upsertRecord(deps.db(), {
        model,
        idHash: hashToken(id),
        payload: JSON.stringify(stored),
        grantId: model === "Grant" ? id : (payload.grantId ?? null),
        sessionUid: model === "Session" ? (payload.uid ?? null) : null,
        userCodeHash: typeof payload.userCode === "string" ? hashToken(payload.userCode) : null,
        accountId: payload.accountId ?? null,
        clientId: payload.clientId ?? (model === "Client" ? (payload.client_id ?? null) : null),
        expiresAt: typeof expiresIn === "number" ? now + expiresIn : null,
        createdAt: now,
      });
    },
    async find(id) {
      const found = await findRecord(deps.db(), model, { column: "id_hash", value: hashToken(id) }, deps.now());
      if (!found) return undefined;
      const payload = parsePayload(found.payload);
      return found.consumedAt === null ? payload : { ...payload, consumed: found.consumedAt };
    },
    async findByUid(uid) {
      const found = await findRecord(deps.db(), model, { column: "session_uid", value: uid }, deps.now());
      return found ? parsePayload(found.payload) : undefined;
    },
    async findByUserCode(userCode) {
      const value = hashToken(userCode);
      const found = await findRecord(deps.db(), model, { column: "user_code_hash", value }, deps.now());
      return found ? parsePayload(found.payload) : undefined;
    },
    async consume(id) {
      await consumeRecord(deps.db(), model, hashToken(id), deps.now());
    },
    async destroy(id) {
      await destroyRecord(deps.db(), model, hashToken(id), deps.now(), CREDENTIALS.has(model));
    },
    async revokeByGrantId(grantId) {
      await revokeRecordsOfGrant(deps.db(), model, grantId, deps.now());
    },
  });
}
