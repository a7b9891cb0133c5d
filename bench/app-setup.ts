// The app in-process for the route benchmarks (turn overhead, concurrency): a fresh Postgres database, the fake
// providers on a free port, the app's environment pointed at both, the real POST /api/chat route handler, and
// conversations stored directly from the generator. One set-up per process: the app keeps one database handle
// (and the auth instance built on it) for the life of the process.

import type { TestUser } from "@/tests/api-client";
import { type BenchProviders, startBenchProviders } from "./bench-providers";
import { generateConversation } from "./conversation-generator";

type Database = Awaited<ReturnType<typeof import("@/db/client").getDb>>;

export interface BenchPersona {
  id: string;
  name: string;
  systemPrompt: string;
}

/** A bench's Postgres database: its URL and name (to drop it). */
export interface BenchDatabase {
  url: string;
  name: string;
}

export interface AppBench {
  db: Database;
  database: BenchDatabase;
  providers: BenchProviders;
  signUp(name: string): Promise<TestUser>;
  /** A persona on the 128k OpenAI model. */
  createPersona(): Promise<BenchPersona>;
  /** A conversation of `messages` generated messages (media and tool artifacts included) stored directly. */
  storeConversation(options: {
    persona: BenchPersona;
    owner: TestUser;
    messages: number;
    /** Distinct for each conversation stored in the same database (the generator's ids are derived from it). */
    idSpace?: number;
  }): Promise<string>;
  /** How many SQL statements the app has sent so far (drizzle's query log; the bench's own writes count too). */
  statementsSent(): number;
  /** How many of them were sent before `moment` (a performance.now() of this process). */
  statementsSentBefore(moment: number): number;
  /** One turn through POST /api/chat with a new message, its id given as the chat UI gives it (not read). */
  chatTurn(user: TestUser, conversationId: string, text: string): Promise<Response>;
  close(): Promise<void>;
}

const APP_ENVIRONMENT = [
  "NODE_ENV",
  "DATABASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "CHAT_RATE_LIMIT_PER_MINUTE",
  "LOG_LEVEL",
  "GLASSBOX_TEST",
  "TITLE_MODEL_ID",
] as const;

export async function setUpAppBench(
  baseUrl: string,
  {
    onStatement,
    providersIn = "child-process",
    database: databaseChoice = "fresh",
  }: {
    /** Called with each statement as drizzle sends it (a diagnosis of where a turn's statements go). */
    onStatement?: (query: string) => void;
    /** Where the fake providers run (bench-providers.ts). */
    providersIn?: "in-process" | "child-process";
    /**
     * "fresh" (the default): a new database, dropped by close(). "keep": a new one that close() leaves for another
     * process. Or one such kept database, which close() drops.
     */
    database?: "fresh" | "keep" | BenchDatabase;
  } = {},
): Promise<AppBench> {
  const { createFreshDatabase, dropDatabase } = await import("@/tests/database");
  const database: BenchDatabase =
    typeof databaseChoice === "object" ? databaseChoice : await createFreshDatabase(baseUrl, "bench");
  const providers = await startBenchProviders(providersIn);
  // Everything the app reads from the environment is set before its modules load (the database handle and the
  // auth instance are created on first use from these); close() puts the environment back.
  const savedEnvironment = Object.fromEntries(APP_ENVIRONMENT.map((key) => [key, process.env[key]]));
  process.env.DATABASE_URL = database.url;
  process.env.OPENAI_API_KEY = "bench-key";
  process.env.OPENAI_BASE_URL = `${providers.url}/v1`;
  process.env.CHAT_RATE_LIMIT_PER_MINUTE = "1000000";
  // As under tests: better-auth's own limit on sign-ups off (the concurrency run signs up one user per turn).
  process.env.GLASSBOX_TEST = "1";
  process.env.LOG_LEVEL ??= "warn";
  // Titles from the offline model: the scripted provider replies are each turn's own (as under tests).
  process.env.TITLE_MODEL_ID = "offline:echo";
  // As a production server runs the handlers (`next start` sets it): the configuration is parsed once, not checked
  // for changes on every read (lib/config/env.ts). Parsed again from what is set here, and again after close().
  Object.assign(process.env, { NODE_ENV: "production" });
  const { forgetParsedEnvironment } = await import("@/lib/config/env");
  forgetParsedEnvironment();

  const { createDatabase, databaseHandle, getDb } = await import("@/db/client");
  // The app's handle, made here with a query log that counts statements (db/client.ts makes it on first use
  // otherwise): the turn bench reports how many statements a turn sends.
  let statements = 0;
  /** When each statement was sent (performance.now()), in order. */
  const sentAt: number[] = [];
  (globalThis as { glassboxDatabase?: ReturnType<typeof createDatabase> }).glassboxDatabase = createDatabase({
    url: database.url,
    logQuery: (query) => {
      statements++;
      sentAt.push(performance.now());
      onStatement?.(query);
    },
  });
  const close = async () => {
    await providers.close();
    await databaseHandle().close();
    if (databaseChoice !== "keep") await dropDatabase(baseUrl, database.name);
    for (const [key, value] of Object.entries(savedEnvironment)) {
      if (value === undefined) delete process.env[key];
      else Object.assign(process.env, { [key]: value });
    }
    forgetParsedEnvironment();
  };
  try {
    const chatRoute = await import("@/app/api/chat/route");
    const { signUp, call } = await import("@/tests/api-client");
    const db = await getDb();
    return {
      db,
      database,
      providers,
      signUp,
      statementsSent: () => statements,
      statementsSentBefore: (moment) => {
        let low = 0;
        let high = sentAt.length;
        while (low < high) {
          const middle = (low + high) >> 1;
          if (sentAt[middle] < moment) low = middle + 1;
          else high = middle;
        }
        return low;
      },
      createPersona: () => createPersona(db),
      storeConversation: (options) => storeConversation(db, options),
      chatTurn: (user, conversationId, text) =>
        call(chatRoute.POST, "/api/chat", {
          user,
          // With the message's own id, as the chat UI sends it (useChat gives every message one).
          body: {
            id: conversationId,
            message: { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] },
          },
        }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function createPersona(db: Database): Promise<BenchPersona> {
  const schema = await import("@/db/schema");
  const [persona] = await db
    .insert(schema.personas)
    .values({
      name: "Aria",
      systemPrompt: "You are Aria, a travel planner. Be concise and keep the user's budget in mind.",
      modelId: "openai:gpt-4o",
      // The bench measures turns. These stored conversations are longer than the fetch limit, so a turn in token
      // mode would summarise the overflow first (one more model call): summaries are left to the Compact button.
      settingsOverride: { summary: { mode: "manual" } },
    })
    .returning();
  return { id: persona.id, name: persona.name, systemPrompt: persona.systemPrompt };
}

async function storeConversation(
  db: Database,
  {
    persona,
    owner,
    messages,
    idSpace = 0,
  }: { persona: BenchPersona; owner: TestUser; messages: number; idSpace?: number },
): Promise<string> {
  const schema = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { createConversation } = await import("@/db/conversation-queries");
  const conversation = await createConversation({
    db,
    ownerId: owner.id,
    personaId: persona.id,
    title: "Lisbon in May",
  });
  const generated = generateConversation({
    messageCount: messages,
    seed: 4,
    persona,
    owner: { userId: owner.id, name: owner.name },
    room: null,
    summaryCovers: 0,
    mediaUrl: ({ id }) => `attachment://${id}`,
    idSpace,
  });
  const messageRows = generated.messages.map((message) => ({
    id: message.id,
    conversationId: conversation.id,
    seq: message.seq,
    authorType: message.authorType,
    authorUserId: message.authorUserId,
    authorPersonaId: message.authorPersonaId,
    authorName: message.authorName,
    parts: message.parts,
    replyToMessageId: message.replyToMessageId,
    status: message.status,
    tokenCounts: message.tokenCounts as Record<string, number>,
    segmentTokenCounts: (message.segmentTokenCounts ?? null) as Record<string, number[]> | null,
    createdAt: new Date(message.createdAt),
  }));
  for (let start = 0; start < messageRows.length; start += 250)
    await db.insert(schema.messages).values(messageRows.slice(start, start + 250));
  const pngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
  if (generated.attachments.length > 0) {
    await db
      .insert(schema.attachmentBlobs)
      .values(
        generated.attachments.map((attachment) => ({ storageKey: `db:${attachment.id}`, data: pngBase64 })),
      );
    await db.insert(schema.attachments).values(
      generated.attachments.map((attachment) => ({
        id: attachment.id,
        conversationId: conversation.id,
        messageId: attachment.messageId,
        kind: attachment.kind,
        mime: attachment.mime,
        filename: attachment.filename ?? null,
        sizeBytes: attachment.sizeBytes,
        sha256: attachment.sha256,
        width: attachment.width ?? null,
        height: attachment.height ?? null,
        isEmoji: attachment.isEmoji,
        isSticker: attachment.isSticker,
        storageKey: `db:${attachment.id}`,
      })),
    );
  }
  for (let start = 0; start < generated.artifacts.length; start += 250) {
    await db.insert(schema.artifacts).values(
      generated.artifacts.slice(start, start + 250).map((artifact) => ({
        id: artifact.id,
        conversationId: conversation.id,
        messageId: artifact.messageId,
        type: artifact.type,
        payload: artifact.payload,
        tokenCounts: (artifact.tokenCounts ?? {}) as Record<string, number>,
        createdAt: new Date(artifact.createdAt),
      })),
    );
  }
  await db
    .update(schema.conversations)
    .set({ lastSeq: generated.messages[generated.messages.length - 1].seq })
    .where(eq(schema.conversations.id, conversation.id));
  return conversation.id;
}

/**
 * The app's statement count once it stops moving (`quietMs` without a new statement, `maxMs` at most): a call's
 * last writes (the attempt, the reply's final state, its live events) land after its stream ends.
 */
export async function statementsSettled(
  app: AppBench,
  { quietMs, maxMs }: { quietMs: number; maxMs: number },
): Promise<number> {
  const deadline = performance.now() + maxMs;
  let count = app.statementsSent();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = app.statementsSent();
    if (now === count || performance.now() > deadline) return now;
    count = now;
  }
}
