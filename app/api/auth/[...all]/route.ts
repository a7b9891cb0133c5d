import { toNextJsHandler } from "better-auth/next-js";
import { databaseHandle } from "@/db/client";
import { auth } from "@/lib/auth";

const handlers = toNextJsHandler(auth);

// better-auth's own routes (sign-up/email, sign-in/email, sign-out, get-session, …), once migrations have run.
async function withDatabase(request: Request, handler: (request: Request) => Promise<Response>) {
  await databaseHandle().ready;
  return handler(request);
}

export const GET = (request: Request) => withDatabase(request, handlers.GET);
export const POST = (request: Request) => withDatabase(request, handlers.POST);
