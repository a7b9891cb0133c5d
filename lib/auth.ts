// Accounts and cookie sessions with better-auth (email + password, roles via the admin plugin). The account whose
// email is ADMIN_EMAIL becomes admin; without ADMIN_EMAIL, the first account registered does, decided under a
// lock once the account exists, so sign-ups at the same moment make one admin. Names and passwords follow
// lib/account-rules.ts on every path that sets them. better-auth's admin endpoints keep the last-admin rule: at
// least one usable admin (the role, no ban in force) on every path that can take admin power away.
// Nothing answers differently for an account that exists and one that does not, to a caller not entitled to know:
// sign-up (a taken email gets the answer a new one gets), the admin endpoints (401 before any lookup).

import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { admin } from "better-auth/plugins";
import { banUser, deleteUser, promoteIfFirstAccount, setUserRole } from "@/db/admin-queries";
import { databaseHandle } from "@/db/client";
import * as schema from "@/db/schema";
import { findSessionWithUser } from "@/db/session-queries";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, nameProblem, passwordProblem } from "@/lib/account-rules";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";

const DEVELOPMENT_SECRET = "glassbox-development-secret-change-me-in-production";

function adminEmail(): string | undefined {
  return env().ADMIN_EMAIL;
}

/** The role an account gets when it is created: admin for ADMIN_EMAIL, user otherwise. */
function roleForNewAccount(email: string): "admin" | "user" {
  const configured = adminEmail();
  return configured && email.toLowerCase() === configured ? "admin" : "user";
}

type Body = Record<string, unknown>;

function refuse(message: string, status: "BAD_REQUEST" | "CONFLICT" = "BAD_REQUEST"): never {
  throw new APIError(status, { message });
}

function checkName(name: unknown) {
  const problem = nameProblem(name);
  if (problem) refuse(problem);
}

function checkPassword(password: unknown, userInputs: unknown[] = []) {
  if (typeof password !== "string") refuse("Enter a password.");
  const problem = passwordProblem(
    password,
    userInputs.filter((input): input is string => typeof input === "string"),
  );
  if (problem) refuse(problem);
}

type Context = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** An AppError from a checked query as better-auth's error: the same status and message. */
function asApiError(error: unknown): unknown {
  if (error instanceof AppError && error.code === "conflict")
    return new APIError("CONFLICT", { message: error.message });
  if (error instanceof AppError && error.code === "not_found")
    return new APIError("NOT_FOUND", { message: error.message });
  return error;
}

/** A new account's name and password (its name and email count as guessable in the password). */
function checkNewAccount(body: Body) {
  checkName(body.name);
  checkPassword(body.password, [body.name, body.email]);
}

function targetUserId(body: Body): string {
  if (typeof body.userId !== "string" || body.userId === "") refuse("userId: say which account.");
  return body.userId;
}

/**
 * better-auth's admin endpoints, called by an admin. What can take admin power away (a role, a ban, a deletion) is
 * done here by the app's locked queries (db/admin-queries.ts), whose answer stands in for the endpoint's: a
 * second, unlocked write by better-auth after ours could undo a check. update-user may not touch a role or a ban.
 */
async function adminEndpoint(ctx: Context, body: Body) {
  const db = databaseHandle().db;
  switch (ctx.path) {
    case "/admin/create-user":
      checkNewAccount(body);
      return;
    case "/admin/set-user-password":
      checkPassword(body.newPassword);
      return;
    case "/admin/update-user": {
      const data = (body.data ?? {}) as Body;
      if (data.role !== undefined)
        refuse("Change a role with set-role (or the admin page), not by editing the user.");
      if (["banned", "banReason", "banExpires"].some((key) => key in data)) {
        refuse("Ban or unban with ban-user and unban-user, not by editing the user.");
      }
      if (data.name !== undefined) checkName(data.name);
      return;
    }
    case "/admin/set-role": {
      const role = Array.isArray(body.role) ? body.role : [body.role];
      if (role.length !== 1 || (role[0] !== "admin" && role[0] !== "user")) {
        refuse('role: use "admin" or "user".');
      }
      const userId = targetUserId(body);
      return ctx.json({ user: await setUserRole({ db, userId, role: role[0] }) });
    }
    case "/admin/ban-user": {
      const userId = targetUserId(body);
      const seconds = body.banExpiresIn;
      if (seconds !== undefined && (typeof seconds !== "number" || !(seconds > 0))) {
        refuse("banExpiresIn: a number of seconds above 0, or leave it out for a ban without end.");
      }
      if (body.banReason !== undefined && typeof body.banReason !== "string") refuse("banReason: a text.");
      const banned = await banUser({
        db,
        userId,
        reason: (body.banReason as string | undefined) || "No reason",
        expiresAt: seconds === undefined ? null : new Date(Date.now() + (seconds as number) * 1000),
      });
      return ctx.json({ user: banned });
    }
    case "/admin/remove-user": {
      const userId = targetUserId(body);
      await deleteUser({ db, userId });
      return ctx.json({ success: true });
    }
  }
}

/**
 * Runs before each better-auth endpoint: the account rules, and for the admin endpoints who may call them and the
 * last-admin rule (adminEndpoint).
 */
const beforeEndpoint = createAuthMiddleware(async (ctx) => {
  const body = (ctx.body ?? {}) as Body;
  if (ctx.path.startsWith("/admin/")) {
    const session = await getSessionFromCtx(ctx);
    // Anonymous: refused before anything is looked up, so the answer is the same whoever the target is.
    if (!session) throw new APIError("UNAUTHORIZED", { message: "Sign in as an admin first." });
    // Not an admin: better-auth's own permission check refuses next (403), also before it looks anything up.
    if ((session.user as { role?: string }).role !== "admin") return;
    return adminEndpoint(ctx, body).catch((error: unknown) => {
      throw asApiError(error);
    });
  }
  switch (ctx.path) {
    case "/sign-up/email":
      checkNewAccount(body);
      return;
    case "/update-user":
      if (body.name !== undefined) checkName(body.name);
      return;
    case "/change-password":
    case "/reset-password":
      checkPassword(body.newPassword);
      return;
  }
});

function createAuth() {
  const {
    AUTH_SECRET,
    BETTER_AUTH_SECRET,
    BETTER_AUTH_URL,
    ALLOWED_HOSTS,
    PORT,
    GLASSBOX_TEST,
    TRUSTED_PROXIES,
  } = env();
  return betterAuth({
    database: drizzleAdapter(databaseHandle().db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
      },
    }),
    secret: AUTH_SECRET || BETTER_AUTH_SECRET || DEVELOPMENT_SECRET,
    baseURL: BETTER_AUTH_URL || {
      allowedHosts: ["localhost:*", "127.0.0.1:*", ...ALLOWED_HOSTS],
      protocol: "http",
      fallback: `http://localhost:${PORT}`,
    },
    emailAndPassword: {
      enabled: true,
      // Sign-up starts no session, so that it can answer a taken email exactly as a new one (better-auth then
      // returns a made-up account for it, after hashing the password as for a real one): the form signs in next,
      // and that sign-in is what tells someone who already had an account (components/auth/auth-form.tsx).
      autoSignIn: false,
      // The made-up account carries what a new one would (better-auth leaves the admin plugin's role out).
      customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
        ...coreFields,
        role: roleForNewAccount(coreFields.email),
        banned: false,
        banReason: null,
        banExpires: null,
        ...additionalFields,
        id,
      }),
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    // Our own limiter guards the chat; better-auth's covers sign-in attempts. Off under tests, which sign up many users.
    rateLimit: { enabled: !GLASSBOX_TEST },
    advanced: {
      // A session and its user in one query (the relations in db/schema.ts): every API request looks one up.
      database: { joins: true },
      // The client address for sign-in limits. The server drops forwarding headers from peers outside
      // TRUSTED_PROXIES (instrumentation.ts), so this header is the peer itself or a chain our proxies built.
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"], trustedProxies: TRUSTED_PROXIES },
    },
    telemetry: { enabled: false },
    hooks: { before: beforeEndpoint },
    databaseHooks: {
      user: {
        create: {
          before: async (newUser) => ({ data: { ...newUser, role: roleForNewAccount(newUser.email) } }),
          after: async (created) => {
            if (!adminEmail()) await promoteIfFirstAccount({ db: databaseHandle().db, userId: created.id });
          },
        },
      },
    },
    plugins: [admin(), nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

// Created on first use, not at import: building the app must not open the database.
const globalForAuth = globalThis as unknown as { glassboxAuth?: Auth };

export function getAuth(): Auth {
  globalForAuth.glassboxAuth ??= createAuth();
  return globalForAuth.glassboxAuth;
}

export interface SessionUserRow {
  id: string;
  name: string;
  email: string;
  role: "admin" | "user";
}

/**
 * The signed-in user of a request. The plain case (a validly signed session cookie, its session found, not
 * expired and not yet due for better-auth's refresh, no other auth cookie) is one query and an HMAC with
 * node:crypto: better-auth's own getSession costs several milliseconds of CPU per request (a WebCrypto key import
 * and verify, its endpoint machinery). Every other case goes to better-auth, which decides as it always did:
 * refreshes the expiry, clears a stale cookie, refuses. The session is read on every request, so a sign-out, a
 * revoked session or a role change applies at once. See docs/features.md#the-turns-own-cost.
 */
export async function sessionUser(headers: Headers): Promise<SessionUserRow | null> {
  const auth = getAuth();
  const context = await auth.$context;
  const token = await plainSessionToken(headers);
  const row = token ? await findSessionWithUser({ db: databaseHandle().db, token }) : null;
  const now = Date.now();
  const { expiresIn, updateAge } = context.sessionConfig;
  if (
    row &&
    row.expiresAt.getTime() > now &&
    row.expiresAt.getTime() - expiresIn * 1e3 + updateAge * 1e3 > now
  ) {
    return {
      id: row.userId,
      name: row.name,
      email: row.email,
      role: row.role === "admin" ? "admin" : "user",
    };
  }
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, name, email } = session.user;
  return { id, name, email, role: (session.user as { role?: string }).role === "admin" ? "admin" : "user" };
}

/** A Cookie header's values by name, as better-call reads them: the first of a name wins, values URI-decoded. */
function requestCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const chunk of header.split(";")) {
    const at = chunk.indexOf("=");
    if (at === -1) continue;
    const name = chunk.slice(0, at).trim();
    if (cookies.has(name)) continue;
    let value = chunk.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

/**
 * The session token of the plain case (sessionUser): a validly signed session cookie and no other auth cookie;
 * null otherwise. Its signature is ours, so the token is one the app issued; whether its session still holds is
 * sessionUser's to say. A route may read with it beside that check, and use what it read once the check passed
 * (the chat route reads the conversation's snapshot so).
 */
export async function plainSessionToken(headers: Headers): Promise<string | null> {
  const context = await getAuth().$context;
  const cookies = requestCookies(headers.get("cookie") ?? "");
  const names = context.authCookies;
  const signed = cookies.get(names.sessionToken.name);
  const plain =
    signed !== undefined &&
    !cookies.has(names.dontRememberToken.name) &&
    !cookies.has(names.sessionData.name) &&
    typeof context.secret === "string";
  return plain ? verifiedToken(signed, context.secret) : null;
}

/** The token of a cookie signed as better-call signs it (`token.base64(HMAC-SHA256)`), or null. */
function verifiedToken(signedValue: string, secret: string): string | null {
  const at = signedValue.lastIndexOf(".");
  if (at < 1) return null;
  const token = signedValue.slice(0, at);
  const encoded = signedValue.slice(at + 1);
  if (encoded.length !== 44 || !encoded.endsWith("=")) return null;
  // Compared as text: base64 decoding is lenient (a final character's unused bits are ignored), the HMAC's
  // canonical encoding is not.
  const signature = Buffer.from(encoded);
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64"));
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}
