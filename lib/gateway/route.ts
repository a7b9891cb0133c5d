// The frame of every gateway route (/v1): a client that is no browser, so no same-origin check (the bearer secret
// is no ambient credential a cross-site page could borrow, unlike the session cookie); the database is ready, the
// key is checked, and every refusal is in OpenAI's error shape. A route's body is read while the key is checked.

import "server-only";
import { type Database, databaseHandle, getDb } from "@/db/client";
import { AppError, databaseUnavailable, isDatabaseUnavailable } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";
import { trackRequest } from "@/lib/shutdown-hooks";
import { authenticateKey, type KeyCaller } from "./api-keys";
import { fromAppError, GatewayError } from "./errors";

export interface GatewayCall extends KeyCaller {
  db: Database;
  request: Request;
  /** performance.now() when the call arrived: the overhead header counts from here. */
  arrivedAt: number;
}

type GatewayHandler<Read> = (call: GatewayCall, read: Read) => Promise<Response>;

/**
 * `read` takes what the handler needs from the request alone (its body, and lookups made from it alone, such as
 * the persona its model names) while the key is checked, so neither waits for the other. It must act on nothing:
 * the handler gets its result only once the key passed, and a bad key is a 401 whatever the body holds.
 */
export function gatewayRoute<Read = undefined>(
  handler: GatewayHandler<Read>,
  read: (request: Request, db: Database) => Promise<Read> = async () => undefined as Read,
): (request: Request) => Promise<Response> {
  return (request) =>
    trackRequest(async () => {
      const arrivedAt = performance.now();
      try {
        await databaseHandle().ready;
        const db = await getDb();
        const reading = read(request, db);
        // Refused below when the key is, which then answers instead.
        reading.catch(() => {});
        const caller = await authenticateKey(db, request);
        return await handler({ ...caller, db, request, arrivedAt }, await reading);
      } catch (error) {
        return errorResponse(error, request);
      }
    });
}

/** Any refusal as OpenAI's clients read it; anything unexpected is logged and a 500 that says no more. */
export function errorResponse(error: unknown, request: Request): Response {
  if (error instanceof GatewayError) return error.toResponse();
  if (error instanceof AppError) return fromAppError(error).toResponse();
  if (isDatabaseUnavailable(error)) return fromAppError(databaseUnavailable(error)).toResponse();
  logger.error({ err: error, url: request.url, method: request.method }, "unhandled gateway error");
  return new GatewayError(500, "Something went wrong on the server.", { type: "server_error" }).toResponse();
}
