// Forks of an edited question, as a chat with edit history does them: editing a user message that has an answer
// stores the new text as a sibling version of the question (same parent), and the old question with everything
// after it stays stored as the branch it was. `chosen` keeps meaning "on the shown path", so every reader of the
// path is unchanged; a fork or a switch between a question's versions rewrites `chosen` for the two branches in one
// transaction, and `chosenAmongSiblings` remembers each branch's own choices for when it is shown again. A
// summarised question is never forked or switched away: the summary speaks for the branch it was made on.

import "server-only";
import { and, eq, gt, gte, isNull, sql } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import type { StoredPart } from "@/lib/domain/types";
import { insertMessage } from "./message-insert-queries";
import { getMessageInConversation } from "./message-queries";
import { anyRow, lockConversation, type MessageArgs, type Transaction } from "./query-parts";
import { queryRows } from "./raw-sql";
import { type Message, messages } from "./schema";

/**
 * When the user message `question` already has later messages on the shown path, store `parts` as a new version of
 * it (a fork) and return that version, now shown with nothing after it; else null (the caller edits in place).
 */
export async function forkQuestionIfAnswered(
  tx: Transaction,
  question: Message,
  parts: StoredPart[],
): Promise<Message | null> {
  await lockConversation(tx, question.conversationId);
  const answered = await anyRow(
    tx,
    messages,
    and(
      eq(messages.conversationId, question.conversationId),
      eq(messages.chosen, true),
      gt(messages.seq, question.seq),
    ),
  );
  if (!answered) return null;
  if (!question.chosen) {
    throw new AppError("conflict", "This question is on a branch that is not shown: show its branch first.");
  }
  await hideBranchFrom(tx, question);
  const attachmentIds = parts.flatMap((part) => (part.type === "media" ? [part.attachmentId] : []));
  // The fork's images are copies of the original's (each message owns its attachment rows).
  return insertMessage(
    tx,
    {
      conversationId: question.conversationId,
      authorType: "user",
      authorUserId: question.authorUserId,
      authorName: question.authorName,
      parts,
      status: "complete",
      parentMessageId: question.parentMessageId,
    },
    attachmentIds.length > 0 ? { attachmentIds, userId: question.authorUserId ?? "" } : undefined,
  );
}

/**
 * Show the branch of this version of a question: the version shown now and every later message of the path are
 * hidden, and this version with the path it had (its own choices, `chosenAmongSiblings`) is shown again.
 */
export async function showQuestionBranch({ db, conversationId, messageId }: MessageArgs): Promise<Message> {
  return db.transaction(async (tx) => {
    await lockConversation(tx, conversationId);
    const target = await getMessageInConversation({ db: tx, conversationId, messageId });
    if (target.authorType !== "user") {
      throw new AppError(
        "bad_request",
        "chosen: only a reply of the persona or a user's question can be chosen.",
      );
    }
    if (target.chosen) return target;
    const [shown] = await tx
      .select()
      .from(messages)
      .where(and(...versionsOf(target), eq(messages.chosen, true)))
      .limit(1);
    if (!shown) {
      throw new AppError(
        "conflict",
        "This version's branch is not on the shown path: show that branch first.",
      );
    }
    if (shown.summarizedBy || target.summarizedBy) {
      throw new AppError(
        "conflict",
        "This question is summarised: the summary speaks for the branch it was made on, so the branch cannot be switched.",
      );
    }
    await hideBranchFrom(tx, shown);
    await tx.update(messages).set({ chosenAmongSiblings: true }).where(eq(messages.id, target.id));
    // The branch's own path: from the version down, through each message's chosen child.
    await queryRows(
      tx,
      sql`with recursive "path" as (
            select ${messages.id} as "id" from ${messages} where ${messages.id} = ${target.id}
            union all
            select "child"."id" from ${messages} as "child" join "path" on "child"."parentMessageId" = "path"."id"
            where "child"."chosenAmongSiblings"
          )
          update ${messages} set "chosen" = true where ${messages.id} in (select "id" from "path")`,
    );
    return getMessageInConversation({ db: tx, conversationId, messageId });
  });
}

/** The conditions that pick the versions of a question: the user messages with its parent. */
function versionsOf(question: Pick<Message, "conversationId" | "parentMessageId">) {
  return [
    eq(messages.conversationId, question.conversationId),
    eq(messages.authorType, "user"),
    question.parentMessageId === null
      ? isNull(messages.parentMessageId)
      : eq(messages.parentMessageId, question.parentMessageId),
  ];
}

/**
 * Hide the shown question `from` and the rest of the path after it (seq grows along the path, so that is every
 * shown message from its seq on). Their own `chosenAmongSiblings` stay, for when the branch is shown again.
 */
async function hideBranchFrom(tx: Transaction, from: Pick<Message, "id" | "conversationId" | "seq">) {
  await tx
    .update(messages)
    .set({ chosen: false })
    .where(
      and(
        eq(messages.conversationId, from.conversationId),
        eq(messages.chosen, true),
        gte(messages.seq, from.seq),
      ),
    );
  await tx.update(messages).set({ chosenAmongSiblings: false }).where(eq(messages.id, from.id));
}

/**
 * The versions of each question that has several, oldest first, by the id of each version, from the
 * conversation's messages (all of them, shown or not). User messages that share a parent while more than one is
 * shown were sent at the same instant in a room, not edited: they are consecutive messages, not versions.
 */
export function questionVersions(
  rows: Pick<Message, "id" | "authorType" | "parentMessageId" | "chosen" | "seq">[],
): Map<string, string[]> {
  const byParent = new Map<string | null, typeof rows>();
  for (const row of rows) {
    if (row.authorType !== "user") continue;
    byParent.set(row.parentMessageId, [...(byParent.get(row.parentMessageId) ?? []), row]);
  }
  const versions = new Map<string, string[]>();
  for (const siblings of byParent.values()) {
    if (siblings.length < 2 || siblings.filter((row) => row.chosen).length > 1) continue;
    const ids = [...siblings].sort((a, b) => a.seq - b.seq).map((row) => row.id);
    for (const id of ids) versions.set(id, ids);
  }
  return versions;
}
