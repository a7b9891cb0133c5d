import { toNextJsHandler } from "better-auth/next-js";
import { databaseHandle } from "@/db/client";
import { getAuth } from "@/lib/auth";

// better-auth's own routes (sign-up/email, sign-in/email, sign-out, get-session, …), once migrations have run.
async function handle(request: Request, method: "GET" | "POST") {
  await databaseHandle().ready;
  return toNextJsHandler(getAuth())[method](request);
}

export const GET = (request: Request) => handle(request, "GET");
export const POST = (request: Request) => handle(request, "POST");
