// The session lookup every API request makes (lib/auth.ts, `sessionUser`): the session row by its token, with
// the fields of its user the app uses, in one prepared query (db/prepared-statements.ts).
import { eq, sql } from "drizzle-orm";
import type { Database } from "./client";
import { preparedStatement } from "./prepared-statements";
import { session, user } from "./schema";

const sessionWithUser = preparedStatement("findSessionWithUser", (db) =>
  db
    .select({
      expiresAt: session.expiresAt,
      userId: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sql.placeholder("token")))
    .limit(1),
);

export async function findSessionWithUser({ db, token }: { db: Database; token: string }) {
  const [row] = await sessionWithUser(db).execute({ token });
  return row ?? null;
}
