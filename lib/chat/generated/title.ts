// Conversation titles, generated once the first exchange is complete: the model named by TITLE_MODEL_ID, else the
// summary/utility model (`summary.modelId`), else the persona's model, writes a short title from the first user message and its reply.
// The offline model derives one deterministically from the first user message, so titles work with no provider
// key. A title is stored only over the default one: a rename, or a title already generated, is never replaced.
// Generation runs after the turn has finished and is not awaited by it; a failure is logged and changes nothing
// (the next finished turn tries again while the title is still the default).

import "server-only";
import type { Database } from "@/db/client";
import { findConversation } from "@/db/conversation-queries";
import { getPersona } from "@/db/persona-queries";
import type { Conversation, Message } from "@/db/schema";
import { getCurrentSettings } from "@/db/settings-queries";
import {
  claimTitleGeneration,
  DEFAULT_CONVERSATION_TITLE,
  getFirstExchange,
  releaseTitleClaim,
  storeGeneratedTitle,
} from "@/db/title-queries";
import { runAuxiliaryCall } from "@/lib/chat/attempts/auxiliary-call";
import { resolveTurnSettings } from "@/lib/chat/turn/load-turn-input";
import { toModelDescriptor } from "@/lib/chat/turn/stored-rows";
import { callableModel, unavailableModelMessage } from "@/lib/chat/turn/turn-setup";
import { env } from "@/lib/config/env";
import { logger } from "@/lib/logger";
import { firstSentence } from "@/lib/providers/offline-summary";

export const TITLE_MAX_CHARS = 60;
/** How much of the first exchange the title model reads. */
const EXCERPT_CHARS = 2_000;

export const TITLE_INSTRUCTIONS =
  "You name conversations. Reply with a short title (at most 6 words) for the conversation below: " +
  "plain text on one line, no quotes, no trailing punctuation, in the language of the conversation.";

export type TitleOutcome =
  | { status: "stored"; title: string; modelId: string }
  | { status: "skipped"; reason: string }
  | { status: "failed"; reason: string };

const globalForTitles = globalThis as unknown as {
  glassboxTitleGenerations?: Map<string, Promise<TitleOutcome>>;
};

/**
 * Generations still running, by conversation, so tests and a graceful shutdown can wait for them. Kept on
 * globalThis: the shutdown (in instrumentation's bundle) and the routes that start generations (in theirs) each
 * load a copy of this module.
 */
function runningGenerations(): Map<string, Promise<TitleOutcome>> {
  globalForTitles.glassboxTitleGenerations ??= new Map();
  return globalForTitles.glassboxTitleGenerations;
}

/** Whether the conversation still has the title it was created with: only such a conversation gets one generated. */
export function hasDefaultTitle(conversation: Pick<Conversation, "title">): boolean {
  return conversation.title === DEFAULT_CONVERSATION_TITLE;
}

/**
 * Starts title generation for the conversation without waiting for it; never throws. A turn that ends while the
 * conversation's title is still being written starts none: the title read at its start was the default only
 * because that generation had not stored its title yet, and a second one would call the model again for nothing.
 * Across instances the generation's claim (db/title-queries.ts) says so; within one, the running generation does,
 * without a statement.
 */
export function startTitleGeneration({ db, conversationId }: { db: Database; conversationId: string }): void {
  const running = runningGenerations();
  if (running.has(conversationId)) return;
  const generation = generateConversationTitle({ db, conversationId });
  running.set(conversationId, generation);
  void generation.finally(() => running.delete(conversationId));
}

/** Resolves once every title generation started so far has ended. */
export async function settleTitleGenerations(): Promise<void> {
  const running = runningGenerations();
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

export async function generateConversationTitle({
  db,
  conversationId,
}: {
  db: Database;
  conversationId: string;
}): Promise<TitleOutcome> {
  try {
    if (!(await claimTitleGeneration({ db, conversationId }))) return await unclaimed(db, conversationId);
    try {
      const conversation = await findConversation({ db, conversationId });
      if (!conversation) return { status: "skipped", reason: "the conversation is gone" };
      return await generateClaimedTitle({ db, conversation });
    } finally {
      // A claim that could not be released lapses with its lease; the outcome is the generation's.
      await releaseTitleClaim({ db, conversationId }).catch((error: unknown) =>
        logger.warn({ err: error, conversationId }, "could not release the title claim"),
      );
    }
  } catch (error) {
    return failed(conversationId, `title generation failed: ${(error as Error).message}`, error);
  }
}

/** Why a generation could not claim the title: the conversation is gone, titled, or another generation's. */
async function unclaimed(db: Database, conversationId: string): Promise<TitleOutcome> {
  const conversation = await findConversation({ db, conversationId });
  if (!conversation) return { status: "skipped", reason: "the conversation is gone" };
  if (!hasDefaultTitle(conversation))
    return { status: "skipped", reason: "the conversation already has a title" };
  return { status: "skipped", reason: "a title is already being generated" };
}

/** The title of a conversation whose generation this call has claimed, generated and stored. */
async function generateClaimedTitle({
  db,
  conversation,
}: {
  db: Database;
  conversation: Conversation;
}): Promise<TitleOutcome> {
  const conversationId = conversation.id;
  const exchange = await getFirstExchange({ db, conversationId });
  if (!exchange) return { status: "skipped", reason: "the first exchange is not complete yet" };
  const question = textOf(exchange.question);
  if (question === "") return { status: "skipped", reason: "the first message has no text to name it by" };

  const [persona, globalSettings] = await Promise.all([
    getPersona({ db, personaId: conversation.personaId }),
    getCurrentSettings({ db }),
  ]);
  const { settings } = resolveTurnSettings(globalSettings.settings, persona, conversation);
  // TITLE_MODEL_ID names one model for every title (a cheap one, or the offline model); unset, titles come
  // from the summary model, else the persona's own.
  const modelId = env().TITLE_MODEL_ID || settings.summary.modelId || persona.modelId;
  const modelRow = await callableModel(db, modelId);
  if (!modelRow) return failed(conversationId, unavailableModelMessage(`the title model ${modelId}`));
  const outcome = await runAuxiliaryCall({
    db,
    conversationId,
    kind: "title",
    models: [toModelDescriptor(modelRow)],
    context: { items: [], trace: [], settings },
    settingsVersion: globalSettings.version,
    prepare: () => ({
      instructions: TITLE_INSTRUCTIONS,
      prompt: titlePrompt(question, textOf(exchange.reply)),
    }),
    // The offline model derives the title from the first message: titles work with no provider key.
    offlineText: () => offlineTitle(question),
    timeoutMs: env().GLASSBOX_TITLE_TIMEOUT_MS,
  });
  if (outcome.status !== "ok") {
    return failed(conversationId, `title generation failed: ${outcome.error.message}`);
  }
  const title = cleanTitle(outcome.value.text);
  if (title === "") return failed(conversationId, `the title model ${modelId} returned no usable title`);
  const stored = await storeGeneratedTitle({ db, conversationId, title });
  if (!stored) return { status: "skipped", reason: "the conversation was renamed meanwhile" };
  return { status: "stored", title, modelId };
}

function failed(conversationId: string, reason: string, error?: unknown): TitleOutcome {
  logger.warn({ err: error, conversationId }, reason);
  return { status: "failed", reason };
}

function textOf(message: Message): string {
  return message.parts
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("\n")
    .trim();
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

export function titlePrompt(question: string, reply: string): string {
  return `User: ${excerpt(question)}\n\nAssistant: ${excerpt(reply)}\n\nTitle:`;
}

/** The offline model's title: the first sentence of the first user message, cleaned and capped. */
export function offlineTitle(question: string): string {
  return firstSentence(question);
}

/**
 * A model's answer made into a title: its first non-empty line, without a "Title:" label, markdown marks,
 * quotes or trailing punctuation, whitespace collapsed, at most TITLE_MAX_CHARS (cut at a word when it can be).
 */
export function cleanTitle(raw: string): string {
  const line =
    raw
      .split("\n")
      .map((candidate) => candidate.trim())
      .find((candidate) => candidate !== "") ?? "";
  let title = line
    .replace(/^(?:#+\s*|title\s*:\s*)/i, "")
    .replace(/["“”„«»`*_]/g, "")
    .replace(/(^|\s)'+|'+(?=\s|$)/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.,;:!?…-]+$/u, "")
    .trim();
  if (title.length > TITLE_MAX_CHARS) {
    const cut = title.slice(0, TITLE_MAX_CHARS);
    // A cut that falls right before a space already ends on a whole word.
    const lastSpace = title[TITLE_MAX_CHARS] === " " ? TITLE_MAX_CHARS : cut.lastIndexOf(" ");
    title = (lastSpace >= TITLE_MAX_CHARS / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:!?-]+$/u, "");
  }
  return title;
}
