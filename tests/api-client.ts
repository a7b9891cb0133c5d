// Calls the app's route handlers in-process with real Request objects, a better-auth cookie session (signUp), and
// the real database. No Next.js server in between, but the same code every request runs.
import { makeSignature } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import * as authRoute from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db/client";
import { user } from "@/db/schema";
import { getAuth } from "@/lib/auth";

// Route handlers declare their own params shape; `never` lets any of them be passed here.
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

export interface TestUser {
  id: string;
  name: string;
  email: string;
  cookie: string;
}

const ORIGIN = "http://localhost:3000";
let counter = 0;

/** A POST to one of better-auth's routes (`path` below /api/auth), as `user` when given. */
export function authPost(path: string, body: unknown, user?: TestUser, headers: Record<string, string> = {}) {
  return authRoute.POST(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        host: "localhost:3000",
        ...(user ? { cookie: user.cookie } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
}

/** An address no other test account has, readable as `name`'s. */
function uniqueEmail(name: string): string {
  return `${name.toLowerCase().replace(/\W+/g, "")}-${Date.now()}-${counter++}@example.test`;
}

/** The password of every account `signUp` makes, and its hash (one scrypt per process: see `signUp`). */
export const TEST_PASSWORD = "a long enough password";
let testPasswordHash: Promise<string> | undefined;

/**
 * A new account with a signed-in session, for tests whose subject is not signing up or in (those go through
 * better-auth's routes with `authPost`). The account is stored as the sign-up route stores one, by better-auth's
 * own adapter, so the same database hooks run (the role, the first account's promotion), with a credential account
 * whose password is `TEST_PASSWORD`; the session is better-auth's, in a cookie signed as its sign-in signs it.
 * What it leaves out are the routes' two scrypts (a hash and a verify, slow on purpose), which every test that
 * makes an account would otherwise pay for.
 */
export async function signUp(name = "Tester"): Promise<TestUser> {
  const email = uniqueEmail(name);
  await getDb(); // migrated first, as every route's handler has it
  const context = await getAuth().$context;
  testPasswordHash ??= context.password.hash(TEST_PASSWORD);
  const created = await context.internalAdapter.createUser(
    { name, email, emailVerified: false },
    { method: "email-password" },
  );
  await context.internalAdapter.linkAccount({
    userId: created.id,
    providerId: "credential",
    accountId: created.id,
    password: await testPasswordHash,
  });
  const session = await context.internalAdapter.createSession(created.id);
  const signed = `${session.token}.${await makeSignature(session.token, context.secret)}`;
  return {
    id: created.id,
    name,
    email,
    cookie: `${context.authCookies.sessionToken.name}=${encodeURIComponent(signed)}`,
  };
}

/**
 * A new account made as a person makes one: better-auth's sign-up route, then its sign-in route for the session
 * (sign-up starts none: lib/auth.ts). For tests whose subject is signing up.
 */
export async function signUpThroughRoutes(name = "Tester"): Promise<TestUser> {
  const email = uniqueEmail(name);
  const response = await authPost("/sign-up/email", { name, email, password: TEST_PASSWORD });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user: { id: string } };
  const signedIn = await authPost("/sign-in/email", { email, password: TEST_PASSWORD });
  if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  const cookie = signedIn.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { id: body.user.id, name, email, cookie };
}

export interface CallOptions {
  method?: string;
  user?: TestUser | null;
  /** A value is sent as JSON; a string is sent as is (for malformed bodies); FormData is sent as multipart. */
  body?: unknown;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

export async function call(handler: Handler, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    origin: ORIGIN,
    host: "localhost:3000",
    ...(options.headers ?? {}),
  };
  if (options.user) headers.cookie = options.user.cookie;
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) {
    body = options.body; // the Request sets the multipart content-type with its boundary
  } else if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  }
  const request = new Request(`${ORIGIN}${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  return handler(request, { params: Promise.resolve(options.params ?? {}) as Promise<never> });
}

export async function expectError(response: Response, status: number, code: string): Promise<string> {
  const text = await response.text();
  if (response.status !== status)
    throw new Error(`expected ${status} ${code}, got ${response.status}: ${text}`);
  const parsed = JSON.parse(text) as { error: { code: string; message: string } };
  if (parsed.error.code !== code) throw new Error(`expected code ${code}, got ${parsed.error.code}: ${text}`);
  if (!parsed.error.message) throw new Error("error without a message");
  return parsed.error.message;
}

/** A response's body text, once its status is `status`; otherwise an error naming the call (`what`), status and body. */
export async function okText(response: Response, what: string, status = 200): Promise<string> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what} failed: ${response.status} ${text}`);
  return text;
}

/** Read an AI SDK UI message stream response into its chunks. */
export async function readUIStream(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)));
}

/** Make a test user an admin directly in the database (the first-account rule is order-dependent in tests). */
export async function promoteToAdmin(testUser: TestUser): Promise<TestUser> {
  const db = await getDb();
  await db.update(user).set({ role: "admin" }).where(eq(user.id, testUser.id));
  return testUser;
}

/** A bad-input case of a table: the body sent and the 4xx error it must get. */
export interface Refusal {
  name: string;
  body: unknown;
  status: number;
  code: string;
  message?: RegExp;
}

/** A case refused with 400 bad_request and a message matching `message`. */
export function badRequest(name: string, body: unknown, message: RegExp): Refusal & { message: RegExp } {
  return { name, body, status: 400, code: "bad_request", message };
}
