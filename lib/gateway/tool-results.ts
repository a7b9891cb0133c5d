// A client's tool calls and results, stored as a reply's own are (function_call and function_call_output
// artifacts named in the message's parts), so the inspector shows them and later turns replay them paired: the
// results a call sends go with the calls of the reply they answer, the newest message of the conversation.

import "server-only";
import { ulid } from "ulid";
import type { Database } from "@/db/client";
import { finishReplyWithArtifacts, listArtifactsForMessages, listHistoryWindow } from "@/db/message-queries";
import type { Message } from "@/db/schema";
import type { StoredPart } from "@/lib/domain/types";
import type { ClientToolCall, ToolResultMessage } from "./client-tools";
import { invalidField } from "./errors";

interface NewArtifact {
  id: string;
  type: "function_call" | "function_call_output";
  payload: Record<string, unknown>;
}

/** A reply's calls as stored, for a message the client sent (the tool loop's first step). */
export function callArtifacts(calls: readonly ClientToolCall[]): NewArtifact[] {
  return calls.map((call) => ({
    id: ulid(),
    type: "function_call",
    payload: { callId: call.id, name: call.name, arguments: call.arguments, step: 0 },
  }));
}

/** Results as stored after their calls: the output is the tool message's text, as the model is sent it. */
function resultArtifacts(
  results: readonly { toolCallId: string; text: string }[],
  calls: ReadonlyMap<string, { name: string; step: number }>,
): NewArtifact[] {
  return results.map((result) => {
    const call = calls.get(result.toolCallId);
    return {
      id: ulid(),
      type: "function_call_output",
      payload: {
        callId: result.toolCallId,
        name: call?.name ?? "",
        output: result.text,
        step: call?.step ?? 0,
      },
    };
  });
}

/** Adds artifacts after a stored message's parts. */
export async function appendArtifacts(
  db: Database,
  message: Message,
  added: NewArtifact[],
): Promise<Message> {
  if (added.length === 0) return message;
  const parts: StoredPart[] = [
    ...(message.parts as StoredPart[]),
    ...added.map((artifact) => ({ type: "artifact" as const, artifactId: artifact.id })),
  ];
  const stored = await finishReplyWithArtifacts({
    db,
    messageId: message.id,
    conversationId: message.conversationId,
    parts,
    artifacts: added,
    status: message.status,
  });
  return stored ?? message;
}

/** For a new conversation's history: results of the calls of `message` (stored just before). */
export function storeHistoryResults(
  db: Database,
  message: Message,
  calls: readonly ClientToolCall[],
  results: readonly { toolCallId: string; text: string }[],
): Promise<Message> {
  const byId = new Map(calls.map((call) => [call.id, { name: call.name, step: 0 }]));
  return appendArtifacts(db, message, resultArtifacts(results, byId));
}

/**
 * The call's tool results, stored with the calls they answer: those of the conversation's newest message, a reply
 * of the persona. A result for no call of it, or for one already answered, is a 400 naming the tool message; a
 * call left without a result is a 400 too.
 * Resolves with that reply (null when the call sends no results).
 */
export async function storeToolResults({
  db,
  conversationId,
  results,
}: {
  db: Database;
  conversationId: string;
  results: readonly ToolResultMessage[];
}): Promise<Message | null> {
  if (results.length === 0) return null;
  const [newest] = await listHistoryWindow({ db, conversationId, afterSeq: 0, limit: 1 });
  const stored = newest ? await listArtifactsForMessages({ db, messageIds: [newest.id] }) : [];
  const calls = new Map<string, { name: string; step: number }>();
  const answered = new Set<string>();
  for (const artifact of stored) {
    const payload = artifact.payload as { callId?: unknown; name?: unknown; step?: unknown };
    if (typeof payload.callId !== "string") continue;
    if (artifact.type === "function_call") {
      calls.set(payload.callId, {
        name: typeof payload.name === "string" ? payload.name : "",
        step: typeof payload.step === "number" ? payload.step : 0,
      });
    } else if (artifact.type === "function_call_output") answered.add(payload.callId);
  }
  const seen = new Set<string>();
  for (const result of results) {
    if (!calls.has(result.toolCallId) || newest?.authorType !== "persona") {
      throw invalidField(
        result.param,
        `${JSON.stringify(result.toolCallId)} is not a call of the conversation's last reply.`,
      );
    }
    if (answered.has(result.toolCallId) || seen.has(result.toolCallId)) {
      throw invalidField(result.param, `${JSON.stringify(result.toolCallId)} already has its result.`);
    }
    seen.add(result.toolCallId);
  }
  // As OpenAI requires: every call of the reply gets its result (a provider refuses a call left unanswered).
  const unanswered = [...calls.keys()].filter((callId) => !answered.has(callId) && !seen.has(callId));
  if (unanswered.length > 0) {
    const list = results[0]?.param.split("[")[0] ?? "messages";
    throw invalidField(
      list,
      `the tool call ${JSON.stringify(unanswered[0])} has no result: send one for each call.`,
    );
  }
  return appendArtifacts(db, newest as Message, resultArtifacts(results, calls));
}
