// API keys: a secret made of random bytes, shown once and stored only as its SHA-256; a call names its key with
// `Authorization: Bearer <secret>`, read against the database on every call, so a revoked key is refused at once
// on every instance.

import "server-only";
import { createHash, randomBytes } from "node:crypto";
import {
  findActiveApiKey,
  insertApiKey,
  type KeyModelUsage,
  listActiveApiKeysWithUsage,
  touchApiKey,
} from "@/db/api-key-queries";
import type { Database } from "@/db/client";
import type { ApiKey } from "@/db/schema";
import type { SessionUser } from "@/lib/api/route";
import { costOfUsage, sumCosts } from "@/lib/pricing";
import { GatewayError } from "./errors";

/** Every secret starts so, which lets secret scanners and people tell a Glassbox key at a glance. */
export const SECRET_PREFIX = "gbx_";

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new key of the user: its view, and the secret, which is never shown again. */
export async function createApiKey({
  db,
  userId,
  name,
  personaIds,
}: {
  db: Database;
  userId: string;
  name: string;
  personaIds: string[] | null;
}) {
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
  const key = await insertApiKey({ db, userId, name, personaIds, secretHash: hashSecret(secret) });
  return { key, secret };
}

/** The SHA-256 of the call's bearer secret, as keys are stored; null when the call sends none. */
export function bearerSecretHash(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match ? hashSecret(match[1]) : null;
}

/** A key that a call named, and the user its calls act as. */
export interface KeyCaller {
  key: ApiKey;
  user: SessionUser;
}

/** How fresh a key's "last used" time is kept. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The key of the call's bearer secret; a missing, unknown or revoked one (or a banned owner's) is a 401. */
export async function authenticateKey(db: Database, request: Request): Promise<KeyCaller> {
  const secretHash = bearerSecretHash(request);
  if (secretHash === null) {
    throw new GatewayError(
      401,
      "You didn't provide an API key. Send it as `Authorization: Bearer gbx_...` (create one under Settings → API keys).",
      { type: "invalid_request_error", code: "missing_api_key" },
    );
  }
  const found = await findActiveApiKey({ db, secretHash });
  if (!found || found.owner.banned) {
    throw new GatewayError(401, "Incorrect API key provided: it is unknown or was revoked.", {
      type: "invalid_request_error",
      code: "invalid_api_key",
    });
  }
  const { key, owner } = found;
  // When the key was last used is shown on the keys page, to the minute: written at most once a minute, and the
  // call does not wait for it.
  if (key.lastUsedAt === null || Date.now() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)
    touchApiKey({ db, keyId: key.id }).catch(() => {});
  return {
    key,
    user: {
      id: key.userId,
      name: owner.name,
      email: owner.email,
      role: owner.role === "admin" ? "admin" : "user",
    },
  };
}

/** What a key's calls used: the gateway turns, the tokens their model calls reported, and what that cost. */
export interface KeyUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /**
   * US dollars, priced as the inspector prices each attempt's reported usage (lib/pricing.ts); 0 before the first
   * call, null when no model call of the key has a known cost (a model without prices, no usage reported).
   */
  costUsd: number | null;
}

/** The user's keys that still work, newest first, each with its usage (one statement). */
export async function listKeysWithUsage({ db, userId }: { db: Database; userId: string }) {
  const rows = await listActiveApiKeysWithUsage({ db, userId });
  return rows.map(({ calls, byModel, ...key }) => ({ ...key, usage: keyUsage(calls, byModel) }));
}

function keyUsage(calls: number, byModel: KeyModelUsage[]): KeyUsage {
  const costs = byModel.map((model) => (model.reported > 0 ? costOfUsage(model, model.prices) : null));
  return {
    calls,
    inputTokens: byModel.reduce((sum, model) => sum + model.inputTokens, 0),
    outputTokens: byModel.reduce((sum, model) => sum + model.outputTokens, 0),
    costUsd: byModel.length === 0 ? 0 : (sumCosts(costs)?.totalUsd ?? null),
  };
}
