// The peers, measured in the same run on the same stored messages:
// - AI SDK: `convertToModelMessages` + `pruneMessages` (they only convert and prune tool calls / reasoning; no
//   budget, no media rules). The stored messages become UIMessages first, outside the timed region.
// - LangChain: `trimMessages` with a token counter (gpt-tokenizer over each message's text) against a 100 000-token
//   budget. It recounts the remaining list on every cut, so it goes quadratic: run once or twice only.

import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from "@langchain/core/messages";
import { convertToModelMessages, pruneMessages, type UIMessage } from "ai";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { StoredArtifact, StoredAttachment, StoredMessage } from "@/lib/domain/types";
import type { GeneratedConversation } from "./conversation-generator";
import { type Sample, timeAsync } from "./stats";

type UIPart = UIMessage["parts"][number];

export interface PeerFigures {
  aiSdk: { sample: Sample; modelMessages: number };
  langChain: { sample: Sample; kept: number; messagesIn: number } | null;
  /** Why LangChain was not measured (BENCH_LANGCHAIN_RUNS=0). */
  langChainSkipped: string | null;
}

function indexById<T extends { id: string }>(rows: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const row of rows) map.set(row.id, row);
  return map;
}

/** Stored messages → UIMessages as `useChat` would hold them: text, files, reasoning, and tool parts with outputs. */
export function toUIMessages(conversation: GeneratedConversation): UIMessage[] {
  const attachments = indexById(conversation.attachments);
  const artifacts = indexById(conversation.artifacts);
  const outputsByCallId = new Map<string, StoredArtifact>();
  for (const artifact of conversation.artifacts)
    if (artifact.type === "function_call_output")
      outputsByCallId.set(String(artifact.payload.callId), artifact);

  return conversation.messages.map((message): UIMessage => {
    const parts: UIPart[] = [];
    for (const part of message.parts) {
      if (part.type === "text") parts.push({ type: "text", text: part.text });
      else if (part.type === "media") {
        const attachment = attachments.get(part.attachmentId) as StoredAttachment;
        if (!attachment.isEmoji)
          parts.push({ type: "file", mediaType: attachment.mime, url: attachment.url });
      } else {
        const artifact = artifacts.get(part.artifactId) as StoredArtifact;
        if (artifact.type === "reasoning")
          parts.push({ type: "reasoning", text: String(artifact.payload.text) });
        else if (artifact.type === "function_call") {
          const callId = String(artifact.payload.callId);
          const output = outputsByCallId.get(callId);
          parts.push({
            type: `tool-${String(artifact.payload.name)}`,
            toolCallId: callId,
            state: "output-available",
            input: JSON.parse(String(artifact.payload.arguments)),
            output: output?.payload.output ?? "",
          } as UIPart);
        }
        // Outputs ride on their call's part; provider-run tools (web search) are not replayed.
      }
    }
    const role =
      message.authorType === "persona" ? "assistant" : message.authorType === "system" ? "system" : "user";
    return { id: message.id, role, parts };
  });
}

/** The AI SDK peer, timed: convert + prune, on UIMessages prepared beforehand. */
export async function measureAiSdk(
  uiMessages: UIMessage[],
  { runs, warmup }: { runs: number; warmup: number },
): Promise<{ sample: Sample; modelMessages: number }> {
  const run = async () =>
    pruneMessages({
      messages: await convertToModelMessages(uiMessages),
      reasoning: "before-last-message",
      toolCalls: "before-last-2-messages",
      emptyMessages: "remove",
    });
  const modelMessages = (await run()).length;
  return { sample: await timeAsync(run, { runs, warmup }), modelMessages };
}

/** Stored messages → LangChain messages: a system prompt, then human / AI (with tool calls) / tool messages. */
export function toLangChainMessages(conversation: GeneratedConversation): BaseMessage[] {
  const artifacts = indexById(conversation.artifacts);
  const out: BaseMessage[] = [new SystemMessage(conversation.persona.systemPrompt)];
  for (const message of conversation.messages) {
    if (message.authorType !== "persona") {
      const text = textOf(message);
      const prefix = message.authorType === "system" ? "[System] " : `${message.authorName}: `;
      out.push(new HumanMessage(`${prefix}${text}`));
      continue;
    }
    // An assistant message: text pieces, then each tool round as an AI message with calls and its tool messages.
    let text = "";
    let calls: { id: string; name: string; args: Record<string, unknown> }[] = [];
    let outputs: ToolMessage[] = [];
    const flush = () => {
      if (calls.length > 0) {
        out.push(new AIMessage({ content: text, tool_calls: calls }));
        for (const output of outputs) out.push(output);
        text = "";
        calls = [];
        outputs = [];
      }
    };
    for (const part of message.parts) {
      if (part.type === "text") {
        if (outputs.length > 0) flush();
        text = text ? `${text}\n${part.text}` : part.text;
      } else if (part.type === "artifact") {
        const artifact = artifacts.get(part.artifactId) as StoredArtifact;
        const payload = artifact.payload;
        if (artifact.type === "function_call") {
          if (outputs.length > 0) flush();
          calls.push({
            id: String(payload.callId),
            name: String(payload.name),
            args: JSON.parse(String(payload.arguments)),
          });
        } else if (artifact.type === "function_call_output") {
          outputs.push(
            new ToolMessage({ content: String(payload.output), tool_call_id: String(payload.callId) }),
          );
        }
      }
    }
    flush();
    if (text) out.push(new AIMessage(text));
  }
  return out;
}

function textOf(message: StoredMessage): string {
  let text = "";
  for (const part of message.parts)
    if (part.type === "text") text = text ? `${text}\n${part.text}` : part.text;
  return text;
}

/** Tokens of a message list: each message's text (and tool-call arguments) through o200k, plus framing. */
export function countLangChainTokens(messages: BaseMessage[]): number {
  let total = 0;
  for (const message of messages) {
    const content = message.content;
    total += 4 + countTokens(typeof content === "string" ? content : JSON.stringify(content));
    if (message instanceof AIMessage)
      for (const call of message.tool_calls ?? [])
        total += countTokens(call.name) + countTokens(JSON.stringify(call.args));
  }
  return total;
}

/** The LangChain peer, timed: trimMessages keeping the last 100 000 tokens. */
export async function measureLangChain(
  messages: BaseMessage[],
  { runs, maxTokens = 100_000 }: { runs: number; maxTokens?: number },
): Promise<{ sample: Sample; kept: number }> {
  const run = () =>
    trimMessages(messages, {
      maxTokens,
      strategy: "last",
      tokenCounter: countLangChainTokens,
      includeSystem: true,
      startOn: "human",
    });
  let kept = 0;
  const sample = await timeAsync(
    async () => {
      const trimmed = await run();
      kept = trimmed.length;
      return trimmed;
    },
    { runs, warmup: 0 },
  );
  return { sample, kept };
}
