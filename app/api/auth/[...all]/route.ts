// better-auth's own routes (sign-up/email, sign-in/email, sign-out, get-session, admin/…), once migrations have
// run. In front of them, the same cross-site guard as every app route (better-auth's own origin check trusts
// every port of localhost); after them, `Secure` on each cookie when the request came over HTTPS, and a 503 with
// retry-after instead of better-auth's bare 500 when the database is down.

import { toNextJsHandler } from "better-auth/next-js";
import { sql } from "drizzle-orm";
import { databaseHandle } from "@/db/client";
import { queryRows } from "@/db/raw-sql";
import { guardStateChange } from "@/lib/api/same-origin";
import { servedOverHttps, withSecureCookies } from "@/lib/api/secure-cookies";
import { getAuth } from "@/lib/auth";
import { AppError, databaseUnavailable, isDatabaseUnavailable } from "@/lib/domain/errors";
import { logger } from "@/lib/logger";

async function databaseAnswers(): Promise<boolean> {
  try {
    await queryRows(databaseHandle().db, sql`select 1`);
    return true;
  } catch (error) {
    return !isDatabaseUnavailable(error);
  }
}

/**
 * better-auth answers `{ code, message }`; the app's clients read `{ error: { code, message } }`. Both are sent,
 * so better-auth's own client (which reads the first) and everything else (the second) say the same thing.
 */
async function withAppErrorFormat(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: { code?: unknown; message?: unknown; error?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON after all: passed on as it came
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (!body || typeof body !== "object" || body.error !== undefined) {
    return new Response(text, { status: response.status, headers });
  }
  const message =
    typeof body.message === "string" && body.message ? body.message : response.statusText || "Refused.";
  const code = typeof body.code === "string" ? body.code.toLowerCase() : `http_${response.status}`;
  return new Response(JSON.stringify({ ...body, message, error: { code, message } }), {
    status: response.status,
    headers,
  });
}

async function handle(request: Request, method: "GET" | "POST"): Promise<Response> {
  try {
    guardStateChange(request, ["json"]);
    await databaseHandle().ready;
    const response = await toNextJsHandler(getAuth())[method](request);
    // better-auth turns every thrown error into a 500 of its own; say so when the cause is an outage.
    if (response.status >= 500 && !(await databaseAnswers())) return databaseUnavailable().toResponse();
    const answered = response.status >= 400 ? await withAppErrorFormat(response) : response;
    return servedOverHttps(request) ? withSecureCookies(answered) : answered;
  } catch (error) {
    if (error instanceof AppError) return error.toResponse();
    if (isDatabaseUnavailable(error)) return databaseUnavailable(error).toResponse();
    logger.error({ err: error, url: request.url }, "auth route error");
    return new AppError("internal", "Something went wrong on the server.").toResponse();
  }
}

export const GET = (request: Request) => handle(request, "GET");
export const POST = (request: Request) => handle(request, "POST");
