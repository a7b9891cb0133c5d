// better-auth's own routes (sign-up/email, sign-in/email, sign-out, get-session, admin/…), once migrations have
// run. In front of them, the same cross-site guard as every app route (better-auth's own origin check trusts
// every port of localhost); after them, `Secure` on each cookie when the request came over HTTPS, and a 503 with
// retry-after instead of better-auth's bare 500 when the database is down.

import { toNextJsHandler } from "better-auth/next-js";
import { sql } from "drizzle-orm";
import { databaseHandle } from "@/db/client";
import { guardStateChange } from "@/lib/api/same-origin";
import { servedOverHttps, withSecureCookies } from "@/lib/api/secure-cookies";
import { getAuth } from "@/lib/auth";
import { AppError, databaseUnavailable, isDatabaseUnavailable } from "@/lib/errors";
import { logger } from "@/lib/logger";

async function databaseAnswers(): Promise<boolean> {
  try {
    await databaseHandle().db.execute(sql`select 1`);
    return true;
  } catch (error) {
    return !isDatabaseUnavailable(error);
  }
}

async function handle(request: Request, method: "GET" | "POST"): Promise<Response> {
  try {
    guardStateChange(request, ["json"]);
    await databaseHandle().ready;
    const response = await toNextJsHandler(getAuth())[method](request);
    // better-auth turns every thrown error into a 500 of its own; say so when the cause is an outage.
    if (response.status >= 500 && !(await databaseAnswers())) return databaseUnavailable().toResponse();
    return servedOverHttps(request) ? withSecureCookies(response) : response;
  } catch (error) {
    if (error instanceof AppError) return error.toResponse();
    if (isDatabaseUnavailable(error)) return databaseUnavailable(error).toResponse();
    logger.error({ err: error, url: request.url }, "auth route error");
    return new AppError("internal", "Something went wrong on the server.").toResponse();
  }
}

export const GET = (request: Request) => handle(request, "GET");
export const POST = (request: Request) => handle(request, "POST");
