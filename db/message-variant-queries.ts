// Reply variants: which reply may get a new variant (regenerate, retry), the variants of each reply, and choosing
// one. Every function checks that the message belongs to the conversation; who may do it is the route's rule.

import "server-only";
import { asc, eq, gt, isNotNull, isNull, ne, or } from "drizzle-orm";
import { AppError } from "@/lib/domain/errors";
import type { Database } from "./client";
import { getMessageInConversation } from "./message-queries";
import { type ConversationArgs, inConversation, type MessageArgs, type Transaction } from "./query-parts";
import { type Message, messages } from "./schema";

/**
 * The user message a regenerate answers anew: the one the named reply answers (a new variant of it, or a retry),
 * or the named user message itself (a forked question, which has no answer yet). Only the latest exchange can get
 * a new variant: a reply further up would change what every later turn was answering (branch from it instead).
 */
export async function getMessageToAnswer({ db, conversationId, messageId }: MessageArgs): Promise<Message> {
  const named = await getMessageInConversation({ db, conversationId, messageId });
  if (named.authorType !== "user" && (named.authorType !== "persona" || !named.replyToMessageId)) {
    throw new AppError(
      "bad_request",
      "messageId: only a reply of the persona or a user's message can be regenerated.",
    );
  }
  const userMessage =
    named.authorType === "user"
      ? named
      : await getMessageInConversation({
          db,
          conversationId,
          messageId: named.replyToMessageId as string,
        }).catch(() => null);
  if (userMessage?.authorType !== "user" || !userMessage.chosen) {
    throw new AppError("conflict", "This reply answers no message that is still in the conversation.");
  }
  if (userMessage.summarizedBy) {
    throw new AppError(
      "conflict",
      "This reply's message is summarised: the model sees it only as a summary.",
    );
  }
  await refuseUnlessLatestExchange(db, conversationId, userMessage, "regenerated");
  return userMessage;
}

/**
 * Only the latest exchange's reply can change (a new variant, or another one chosen): a reply further up would
 * change what every later turn was answering. Branch from it instead.
 */
async function refuseUnlessLatestExchange(
  db: Database | Transaction,
  conversationId: string,
  userMessage: Pick<Message, "id" | "seq">,
  what: "regenerated" | "chosen",
): Promise<void> {
  // Anything chosen after the user message, other than its own replies, means the exchange is not the latest.
  const [later] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      inConversation(
        messages,
        conversationId,
        gt(messages.seq, userMessage.seq),
        eq(messages.chosen, true),
        or(isNull(messages.replyToMessageId), ne(messages.replyToMessageId, userMessage.id)),
      ),
    )
    .limit(1);
  if (later) {
    throw new AppError(
      "conflict",
      `Only the latest reply's variants can be ${what}: branch from this message to take another path.`,
    );
  }
}

export interface ReplyVariant {
  id: string;
  status: Message["status"];
  chosen: boolean;
}

/**
 * Every reply with more than one variant, by the user message it answers, oldest variant first. A failed variant
 * that is not chosen is left out: a retry replaced it.
 */
export async function listReplyVariants({
  db,
  conversationId,
}: ConversationArgs): Promise<Map<string, ReplyVariant[]>> {
  const rows = await db
    .select({
      id: messages.id,
      status: messages.status,
      chosen: messages.chosen,
      replyToMessageId: messages.replyToMessageId,
    })
    .from(messages)
    .where(
      inConversation(
        messages,
        conversationId,
        eq(messages.authorType, "persona"),
        isNotNull(messages.replyToMessageId),
        or(eq(messages.chosen, true), ne(messages.status, "error")),
      ),
    )
    .orderBy(asc(messages.seq));
  const byUserMessage = new Map<string, ReplyVariant[]>();
  for (const { replyToMessageId, ...variant } of rows) {
    if (!replyToMessageId) continue;
    byUserMessage.set(replyToMessageId, [...(byUserMessage.get(replyToMessageId) ?? []), variant]);
  }
  for (const [userMessageId, variants] of byUserMessage) {
    if (variants.length < 2) byUserMessage.delete(userMessageId);
  }
  return byUserMessage;
}

/** Make this variant the one shown and sent; its siblings stay, unchosen. */
export async function chooseReplyVariant({ db, conversationId, messageId }: MessageArgs): Promise<Message> {
  return db.transaction(async (tx) => {
    const variant = await getMessageInConversation({ db: tx, conversationId, messageId });
    if (variant.authorType !== "persona" || !variant.replyToMessageId) {
      throw new AppError("bad_request", "chosen: only a reply of the persona has variants to choose from.");
    }
    const answered = await getMessageInConversation({
      db: tx,
      conversationId,
      messageId: variant.replyToMessageId,
    });
    await refuseUnlessLatestExchange(tx, conversationId, answered, "chosen");
    await tx
      .update(messages)
      .set({ chosen: false, chosenAmongSiblings: false })
      .where(
        inConversation(
          messages,
          conversationId,
          eq(messages.replyToMessageId, variant.replyToMessageId),
          eq(messages.authorType, "persona"),
        ),
      );
    const [chosen] = await tx
      .update(messages)
      .set({ chosen: true, chosenAmongSiblings: true })
      .where(eq(messages.id, messageId))
      .returning();
    return chosen;
  });
}
