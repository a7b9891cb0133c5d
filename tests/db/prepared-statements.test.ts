// The turn's prepared statements (db/prepared-statements.ts): the same rows as the unprepared queries they
// replaced, on Postgres and on PGlite; one statement per database handle, so two databases never share one; and
// inside a transaction, the transaction's own statement, which sees its uncommitted rows.
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadAttachmentData } from "@/db/attachment-queries";
import { createDatabase, type Database, type DatabaseHandle } from "@/db/client";
import { appendMessage } from "@/db/message-insert-queries";
import { listArtifactsForMessages, listHistoryWindowWithMedia } from "@/db/message-queries";
import { listParticipants } from "@/db/participant-queries";
import {
  artifacts,
  attachmentBlobs,
  attachments,
  conversations,
  messages,
  models,
  personaUserBlocks,
  session,
  settingsVersions,
  turns,
  user,
} from "@/db/schema";
import { findSessionWithUser } from "@/db/session-queries";
import {
  finishTurn,
  getRunningTurn,
  insertFirstReplyAndTurn,
  insertTurn,
  touchTurnHeartbeat,
} from "@/db/turn-queries";
import { readTurnSnapshot, readTurnSnapshotOfSession } from "@/db/turn-snapshot-queries";
import { openConversation } from "@/lib/chat/turn/turn-setup";
import { createFreshDatabase, dropDatabase } from "../database";
import { adaConversation, pgliteForFile } from "../fixtures/pglite";

const baseUrl = process.env.GLASSBOX_BASE_DATABASE_URL;
const HOUR_MS = 3_600_000;

/** A user with a session whose token is `token-<id>`. */
async function userWithSession(db: Database, id: string) {
  await db.insert(user).values({ id, name: id, email: `${id}@example.test` });
  await db.insert(session).values({
    id: `session-${id}`,
    token: `token-${id}`,
    userId: id,
    expiresAt: new Date("2100-01-01T00:00:00Z"),
  });
}

/** Every prepared statement of a turn, checked against the unprepared query it replaced (or the exact rows). */
async function checkTurnStatements(db: Database) {
  const { persona, conversation, append } = await adaConversation(db);

  // A person's message (one statement), then two replies to it (a transaction each): the later one is chosen.
  const question = await append("Which tram goes to the harbour?", "user");
  const reply = (text: string) =>
    appendMessage({
      db,
      message: {
        conversationId: conversation.id,
        authorType: "persona",
        authorPersonaId: persona.id,
        authorName: persona.name,
        parts: [{ type: "text", text }],
        status: "complete",
        replyToMessageId: question.id,
      },
    });
  const first = await reply("The 4.");
  const second = await reply("The 11.");
  expect([question.seq, first.seq, second.seq]).toEqual([1, 2, 3]);
  const stored = await db.select().from(messages).where(eq(messages.conversationId, conversation.id));
  expect(stored.sort((a, b) => a.seq - b.seq)).toEqual([
    question,
    { ...first, chosen: false, chosenAmongSiblings: false },
    second,
  ]);
  expect(second).toMatchObject({ authorUserId: null, clientMessageId: null, chosen: true, editedAt: null });
  // The tree: the first message has no parent, both replies have the question they answer.
  expect([question.parentMessageId, first.parentMessageId, second.parentMessageId]).toEqual([
    null,
    question.id,
    question.id,
  ]);
  // A message without artifacts stores no segment counts: SQL NULL, not the JSON value null.
  const nulls = await db
    .select({ segmentCountsAreNull: sql<boolean>`${messages.segmentTokenCounts} is null` })
    .from(messages)
    .where(eq(messages.conversationId, conversation.id));
  expect(nulls).toEqual([
    { segmentCountsAreNull: true },
    { segmentCountsAreNull: true },
    { segmentCountsAreNull: true },
  ]);

  await db.insert(attachmentBlobs).values([
    { storageKey: "db:one", data: "b25l" },
    { storageKey: "db:two", data: "dHdv" },
  ]);
  const attachment = (messageId: string, storageKey: string) => ({
    conversationId: conversation.id,
    messageId,
    kind: "image" as const,
    mime: "image/png",
    sizeBytes: 3,
    sha256: storageKey,
    storageKey,
  });
  await db
    .insert(attachments)
    .values([
      attachment(question.id, "db:one"),
      attachment(first.id, "db:two"),
      attachment(second.id, "db:two"),
    ]);
  // The window with its media: the newest two chosen messages (the question and the chosen reply), their
  // attachments and artifacts, as the single-table reads give them.
  const window = await listHistoryWindowWithMedia({
    db,
    conversationId: conversation.id,
    afterSeq: 0,
    throughSeq: second.seq,
    limit: 2,
  });
  const windowIds = [question.id, second.id];
  expect(window.messages).toEqual([question, second]);
  // Nothing after `throughSeq`: up to the question, the question alone.
  const upToQuestion = await listHistoryWindowWithMedia({
    db,
    conversationId: conversation.id,
    afterSeq: 0,
    throughSeq: question.seq,
    limit: 2,
  });
  expect(upToQuestion.messages).toEqual([question]);
  expect(window.attachments.map((row) => [row.messageId, row.storageKey]).sort()).toEqual(
    [
      [question.id, "db:one"],
      [second.id, "db:two"],
    ].sort(),
  );
  expect(window.attachments.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    await db
      .select()
      .from(attachments)
      .where(inArray(attachments.messageId, windowIds))
      .orderBy(attachments.id),
  );
  expect(await loadAttachmentData({ db, storageKeys: ["db:one", "db:two", "db:none"] })).toEqual(
    new Map([
      ["db:one", "b25l"],
      ["db:two", "dHdv"],
    ]),
  );

  const artifact = (id: string, messageId: string) => ({
    id,
    conversationId: conversation.id,
    messageId,
    type: "reasoning",
    payload: { text: id },
  });
  await db
    .insert(artifacts)
    .values([artifact("01B", question.id), artifact("01A", first.id), artifact("01C", second.id)]);
  const messageIds = [question.id, first.id];
  const artifactsOf = (ids: string[]) =>
    db.select().from(artifacts).where(inArray(artifacts.messageId, ids)).orderBy(asc(artifacts.id));
  const listedArtifacts = await listArtifactsForMessages({ db, messageIds });
  expect(listedArtifacts.map((row) => row.id)).toEqual(["01A", "01B"]);
  expect(listedArtifacts).toEqual(await artifactsOf(messageIds));
  const windowArtifacts = (
    await listHistoryWindowWithMedia({
      db,
      conversationId: conversation.id,
      afterSeq: 0,
      throughSeq: second.seq,
      limit: 2,
    })
  ).artifacts;
  expect(windowArtifacts.map((row) => row.id)).toEqual(["01B", "01C"]);
  expect(windowArtifacts).toEqual(await artifactsOf(windowIds));

  // Blocks: the time is a parameter of the prepared statement (an expired block is not active).
  for (const id of ["bob", "carol", "dave"]) await userWithSession(db, id);
  const now = new Date();
  await db.insert(personaUserBlocks).values([
    { personaId: persona.id, userId: "bob", blockType: "mute", expiresAt: new Date(now.getTime() - HOUR_MS) },
    {
      personaId: persona.id,
      userId: "carol",
      blockType: "mute",
      expiresAt: new Date(now.getTime() + HOUR_MS),
    },
    { personaId: persona.id, userId: "dave", blockType: "block", expiresAt: null },
  ]);
  const snapshotOf = (clientMessageId: string | null = null) =>
    readTurnSnapshot({ db, conversationId: conversation.id, userId: "ada", clientMessageId });
  const { blocks } = (await snapshotOf()).context;
  expect(blocks.map((row) => row.userName).sort()).toEqual(["carol", "dave"]);
  expect(blocks.sort((a, b) => a.userName.localeCompare(b.userName))).toEqual(
    await db
      .select({ block: personaUserBlocks, userName: user.name })
      .from(personaUserBlocks)
      .innerJoin(user, eq(user.id, personaUserBlocks.userId))
      .where(
        and(
          eq(personaUserBlocks.personaId, persona.id),
          or(isNull(personaUserBlocks.expiresAt), gt(personaUserBlocks.expiresAt, now)),
        ),
      )
      .orderBy(user.name),
  );

  // The rest of the snapshot: each part as the table's own read gives it.
  const snapshot = await snapshotOf();
  const [storedConversation] = await db
    .select()
    .from(conversations)
    .where(eq(conversations.id, conversation.id));
  expect(snapshot.conversation).toEqual(storedConversation);
  expect(snapshot.persona).toEqual(persona);
  const [policy] = await db.select().from(settingsVersions).orderBy(desc(settingsVersions.version)).limit(1);
  expect(snapshot.context.globalSettings).toEqual(policy);
  expect(snapshot.context.participants).toEqual(
    await listParticipants({ db, conversationId: conversation.id }),
  );
  const modelIds = [persona.modelId, ...persona.fallbackModelIds];
  expect([...snapshot.models.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
    await db.select().from(models).where(inArray(models.id, modelIds)).orderBy(models.id),
  );
  expect(snapshot.context.activeSummary).toBeNull();
  expect(snapshot.runningTurn).toBeNull();

  // A turn: started, kept alive, finished.
  const turnId = "0193a5d0-0000-7000-8000-000000000001";
  await insertTurn({
    db,
    turn: {
      id: turnId,
      conversationId: conversation.id,
      userMessageId: question.id,
      assistantMessageId: second.id,
      settingsVersion: 1,
      instanceId: "instance-1",
    },
  });
  expect(await getRunningTurn({ db, conversationId: conversation.id })).toEqual({
    id: turnId,
    assistantMessageId: second.id,
  });
  expect((await snapshotOf()).runningTurn).toEqual({ id: turnId, assistantMessageId: second.id });
  const [started] = await db.select().from(turns).where(eq(turns.id, turnId));
  expect(started).toMatchObject({ status: "running", instanceId: "instance-1", settingsVersion: 1 });
  await db
    .update(turns)
    .set({ heartbeatAt: new Date(now.getTime() - HOUR_MS) })
    .where(eq(turns.id, turnId));
  await touchTurnHeartbeat({ db, turnId });
  const [touched] = await db.select().from(turns).where(eq(turns.id, turnId));
  expect(touched.heartbeatAt?.getTime()).toBeGreaterThanOrEqual(now.getTime() - 1_000);
  await finishTurn({ db, turnId, status: "ok" });
  const [finished] = await db.select().from(turns).where(eq(turns.id, turnId));
  expect(finished).toMatchObject({ status: "ok", heartbeatAt: null });
  expect(await getRunningTurn({ db, conversationId: conversation.id })).toBeNull();
  expect(
    await db
      .select({ id: turns.id })
      .from(turns)
      .where(eq(turns.status, "running"))
      .orderBy(desc(turns.createdAt)),
  ).toEqual([]);

  // A new message's first reply and its turn, in one statement.
  const nextQuestion = await append("And back?", "user");
  const replyId = "0193a5d0-0000-7000-8000-000000000002";
  const nextTurnId = "0193a5d0-0000-7000-8000-000000000003";
  const firstReply = await insertFirstReplyAndTurn({
    db,
    reply: {
      id: replyId,
      conversationId: conversation.id,
      authorPersonaId: persona.id,
      authorName: persona.name,
      replyToMessageId: nextQuestion.id,
    },
    turn: { id: nextTurnId, userMessageId: nextQuestion.id, settingsVersion: 1, instanceId: "instance-2" },
  });
  expect(firstReply).toMatchObject({
    id: replyId,
    seq: 5,
    authorType: "persona",
    parts: [],
    status: "streaming",
    parentMessageId: nextQuestion.id,
  });
  // A person's message (one statement) extends the shown path: its parent is the chosen reply before it.
  expect(nextQuestion.parentMessageId).toBe(second.id);
  expect(await db.select().from(messages).where(eq(messages.id, replyId))).toEqual([firstReply]);
  const [nextTurn] = await db.select().from(turns).where(eq(turns.id, nextTurnId));
  expect(nextTurn).toMatchObject({
    conversationId: conversation.id,
    userMessageId: nextQuestion.id,
    assistantMessageId: replyId,
    status: "running",
    instanceId: "instance-2",
  });
  expect(nextTurn.heartbeatAt?.getTime()).toBeGreaterThanOrEqual(now.getTime() - 1_000);

  expect(await findSessionWithUser({ db, token: "token-carol" })).toEqual({
    expiresAt: new Date("2100-01-01T00:00:00Z"),
    userId: "carol",
    name: "carol",
    email: "carol@example.test",
    role: "user",
  });

  // A message by the id its client gave it: found in its own conversation only.
  const sent = await appendMessage({
    db,
    message: {
      conversationId: conversation.id,
      authorType: "user",
      authorName: "Ada",
      parts: [{ type: "text", text: "And back?" }],
      status: "complete",
      clientMessageId: "client-1",
    },
  });
  expect(sent.clientMessageId).toBe("client-1");
  expect((await snapshotOf("client-1")).clientMessageStored).toBe(true);
  expect((await snapshotOf("client-2")).clientMessageStored).toBe(false);
  // Someone who neither owns the conversation nor takes part in it: not found.
  await expect(
    readTurnSnapshot({ db, conversationId: conversation.id, userId: "bob", clientMessageId: null }),
  ).rejects.toThrow(/not found/i);

  // As the user of a session token reads it (the chat route, beside the session's check): Ada's is her snapshot,
  // read for her; Bob's session reads nothing of it, and neither does a token no session has.
  await db.insert(session).values({
    id: "session-ada",
    token: "token-ada",
    userId: "ada",
    expiresAt: new Date("2100-01-01T00:00:00Z"),
  });
  const ofSession = (token: string) =>
    readTurnSnapshotOfSession({
      db,
      token,
      conversationId: conversation.id,
      modelId: null,
      clientMessageId: "client-1",
    });
  const adaSnapshot = await ofSession("token-ada");
  expect(adaSnapshot).toEqual({
    ...(await snapshotOf("client-1")),
    readFor: { userId: "ada", modelId: null, clientMessageId: "client-1" },
  });
  expect(await ofSession("token-bob")).toBeNull();
  expect(await ofSession("no-such-token")).toBeNull();
  // A snapshot read early is used only by the call it was read for: for Bob, or with another client id, the
  // conversation is read again (and Bob may not read it).
  const open = (userId: string, clientMessageId: string) =>
    openConversation({
      db,
      conversationId: conversation.id,
      userId,
      clientMessageId,
      snapshot: adaSnapshot ?? undefined,
    });
  expect((await open("ada", "client-1")).clientMessageStored).toBe(true);
  expect((await open("ada", "client-2")).clientMessageStored).toBe(false);
  await expect(open("bob", "client-1")).rejects.toThrow(/not found/i);
}

describe.skipIf(!baseUrl)("on Postgres", () => {
  const created: { url: string; name: string }[] = [];
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    for (const purpose of ["prepared_a", "prepared_b"]) {
      const fresh = await createFreshDatabase(baseUrl as string, purpose);
      created.push(fresh);
      const handle = createDatabase({ url: fresh.url });
      handles.push(handle);
      await handle.ready;
    }
  }, 60_000);

  afterAll(async () => {
    for (const handle of handles) await handle.close().catch(() => {});
    for (const fresh of created) await dropDatabase(baseUrl as string, fresh.name);
  });

  test("the prepared statements return what the unprepared queries did", async () => {
    await checkTurnStatements(handles[0].db);
  }, 60_000);

  test("two databases never share a prepared statement", async () => {
    const [a, b] = handles.map((handle) => handle.db);
    await userWithSession(b, "only-in-b");
    // Alternating, so each handle's statement is made once and then reused: each reads its own database.
    for (let round = 0; round < 3; round++) {
      expect(await findSessionWithUser({ db: a, token: "token-only-in-b" })).toBeNull();
      expect(await findSessionWithUser({ db: b, token: "token-only-in-b" })).toMatchObject({
        userId: "only-in-b",
      });
    }
  });

  test("inside a transaction the statement sees the transaction's uncommitted rows", async () => {
    const db = handles[0].db;
    const rolledBack = new Error("roll back");
    await expect(
      db.transaction(async (tx) => {
        const inTransaction = tx as unknown as Database;
        await userWithSession(inTransaction, "uncommitted");
        expect(await findSessionWithUser({ db: inTransaction, token: "token-uncommitted" })).toMatchObject({
          userId: "uncommitted",
        });
        // The database's own statement, on another connection, does not see it.
        expect(await findSessionWithUser({ db, token: "token-uncommitted" })).toBeNull();
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await findSessionWithUser({ db, token: "token-uncommitted" })).toBeNull();
  });
});

describe("on PGlite", () => {
  const handle = pgliteForFile("prepared");

  test("the prepared statements return what the unprepared queries did", async () => {
    await handle.ready;
    await checkTurnStatements(handle.db);
  }, 60_000);
});
