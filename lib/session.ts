// The signed-in user for server components and pages; redirects to sign-in when there is none.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { databaseHandle } from "@/db/client";
import type { SessionUser } from "@/lib/api/route";
import { sessionUser } from "@/lib/auth";

export async function currentUser(): Promise<SessionUser | null> {
  await databaseHandle().ready;
  return sessionUser(await headers());
}

export async function requirePageUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return user;
}
