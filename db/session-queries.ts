// The session lookup every API request makes (lib/auth.ts, `sessionUser`): the session row by its token, with
// the fields of its user the app uses, in one query.
import { eq } from "drizzle-orm";
import type { Database } from "./client";
import { session, user } from "./schema";

export async function findSessionWithUser({ db, token }: { db: Database; token: string }) {
  const [row] = await db
    .select({
      expiresAt: session.expiresAt,
      userId: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, token))
    .limit(1);
  return row ?? null;
}
