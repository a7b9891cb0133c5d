// Accounts and cookie sessions with better-auth (email + password, roles via the admin plugin). The account whose
// email is ADMIN_EMAIL becomes admin; without ADMIN_EMAIL, the first account registered does.

import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { admin } from "better-auth/plugins";
import { count } from "drizzle-orm";
import { databaseHandle } from "@/db/client";
import * as schema from "@/db/schema";

const DEVELOPMENT_SECRET = "glassbox-development-secret-change-me-in-production";

async function roleForNewAccount(email: string): Promise<"admin" | "user"> {
  const adminEmail = process.env.ADMIN_EMAIL?.trim().toLowerCase();
  if (adminEmail) return email.toLowerCase() === adminEmail ? "admin" : "user";
  const [{ users }] = await databaseHandle().db.select({ users: count() }).from(schema.user);
  return users === 0 ? "admin" : "user";
}

function createAuth() {
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
    secret: process.env.AUTH_SECRET || process.env.BETTER_AUTH_SECRET || DEVELOPMENT_SECRET,
    baseURL: process.env.BETTER_AUTH_URL || {
      allowedHosts: ["localhost:*", "127.0.0.1:*", ...(process.env.ALLOWED_HOSTS?.split(",") ?? [])],
      protocol: "http",
      fallback: `http://localhost:${process.env.PORT ?? 3000}`,
    },
    emailAndPassword: { enabled: true, autoSignIn: true, minPasswordLength: 8, maxPasswordLength: 128 },
    // Our own limiter guards the chat; better-auth's covers sign-in attempts. Off under tests, which sign up many users.
    rateLimit: { enabled: process.env.GLASSBOX_TEST !== "1" },
    telemetry: { enabled: false },
    databaseHooks: {
      user: {
        create: {
          before: async (newUser) => ({ data: { ...newUser, role: await roleForNewAccount(newUser.email) } }),
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
