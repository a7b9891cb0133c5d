// What the specs that start their own instances (e2e/cluster.ts) share: the instances' environment, a signed-up
// user who calls any instance or nginx, a new conversation, a chat request, and the stored rows of a conversation.
import { expect } from "@playwright/test";
import type postgres from "postgres";
import { uniqueEmail } from "./pages/chat-page";

/** Every instance's environment besides the cluster's own: the fake providers at `fakeUrl`, test settings. */
export function clusterAppEnv(fakeUrl: string): Record<string, string> {
  return {
    GLASSBOX_TEST: "1",
    CHAT_RATE_LIMIT_PER_MINUTE: "1000",
    AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
    TITLE_MODEL_ID: "offline:echo",
    OPENAI_API_KEY: "sk-fake-e2e",
    OPENAI_BASE_URL: `${fakeUrl}/v1`,
    // Replies take ~2 s; the margin is for a machine shared with other jobs (a reply once took over 20 s there).
    SHUTDOWN_GRACE_MS: "60000",
  };
}

export interface Session {
  cookie: string;
  /** A request to `base` (nginx or one instance) as this user, with the origin that base's pages would send. */
  call(base: string, path: string, init?: RequestInit): Promise<Response>;
}

/**
 * A new account's session cookie: sign-up starts no session (it answers the same for a taken email, lib/auth.ts),
 * so this signs up and then signs in.
 */
export async function newAccountCookie(base: string, name: string, email: string): Promise<string> {
  const password = "correct horse battery";
  const headers = { "content-type": "application/json", origin: base };
  const signedUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name, email, password }),
  });
  expect(signedUp.status).toBe(200);
  const signedIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  expect(signedIn.status).toBe(200);
  return signedIn.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
}

export async function signUp(base: string, name: string): Promise<Session> {
  const cookie = await newAccountCookie(base, name, uniqueEmail(name.toLowerCase()));
  return {
    cookie,
    call: (target, path, init = {}) =>
      fetch(`${target}${path}`, {
        ...init,
        headers: { origin: target, cookie, ...(init.headers as Record<string, string> | undefined) },
      }),
  };
}

export async function newConversation(session: Session, base: string): Promise<string> {
  const created = await session.call(base, "/api/conversations", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** `count` new conversations of `session`'s, created side by side (a burst's). */
export function newConversations(session: Session, base: string, count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, () => newConversation(session, base)));
}

/** POST /api/chat's request: a user message with `text` and images at `files`. */
export function chatRequest(
  conversationId: string,
  text: string,
  messageId = crypto.randomUUID(),
  files: string[] = [],
) {
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: conversationId,
      message: {
        id: messageId,
        role: "user",
        parts: [
          { type: "text", text },
          ...files.map((url) => ({ type: "file", url, mediaType: "image/png" })),
        ],
      },
    }),
  };
}

export interface StoredRow {
  authorType: string;
  status: string;
  text: string;
}

/** A conversation's messages as stored, in order, each with its text parts joined. */
export async function storedMessages(sql: postgres.Sql, conversationId: string): Promise<StoredRow[]> {
  return sql<StoredRow[]>`
    select "authorType", status, coalesce(
      (select string_agg(part ->> 'text', '') from jsonb_array_elements(parts) part where part ->> 'type' = 'text'),
      '') as text
    from messages where "conversationId" = ${conversationId} order by seq`;
}

/**
 * The instance (`name/worker-n` under several workers) running the conversation's turn. The turn's row is stored
 * while the reply already streams (lib/chat/turn/run-turn.ts), so a test that has read the first bytes polls.
 */
export async function runningTurnInstanceId(sql: postgres.Sql, conversationId: string): Promise<string> {
  let instanceId: string | undefined;
  await expect
    .poll(
      async () => {
        const [turn] = await sql<{ instanceId: string }[]>`
          select "instanceId" from turns where "conversationId" = ${conversationId} and status = 'running'`;
        instanceId = turn?.instanceId;
        return instanceId;
      },
      { message: "the conversation's running turn" },
    )
    .toBeDefined();
  return instanceId as string;
}
