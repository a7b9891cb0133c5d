// One attempt as a training or eval example in OpenAI's chat format: `{ "messages": [...] }`, the items the attempt
// sent followed by the reply it got. System items become one system message (the wire sends them as one block),
// media become `image_url` parts (data URLs), tool calls and results keep their ids. Reasoning is the model's own
// and is left out, as OpenAI's format has no place for it. Calls built from plain instructions and a prompt (titles,
// drafts) record no items: their messages are the text of the request body they sent. Pure.

import type { ContextItem, ItemPart } from "@/lib/domain/types";

type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export type ChatExampleMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatContentPart[] }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatExample {
  messages: ChatExampleMessage[];
}

/** One JSONL line: the example, with the kind and status of the attempt it comes from (docs/features.md, "Export and import"). */
export interface AttemptLine extends ChatExample {
  kind: string;
  status: string;
  modelId: string;
  error: unknown;
}

interface AttemptLike {
  kind: string;
  status: string;
  modelId: string;
  error: unknown;
  items: unknown[];
  request: { body: string } | null;
  response: { text: string } | null;
}

/**
 * Every attempt, whatever its kind or status: what it sent, then the reply (an answered attempt's even when empty;
 * a stopped or failed one's only as far as it got, and none when it got nothing).
 */
export function attemptAsJsonlLine(attempt: AttemptLike): AttemptLine {
  const messages =
    attempt.items.length > 0
      ? itemsAsChatMessages(attempt.items as ContextItem[])
      : requestBodyMessages(attempt.request?.body ?? null);
  const replyText = attempt.response?.text ?? "";
  if (attempt.status === "ok" || replyText !== "") messages.push({ role: "assistant", content: replyText });
  const { kind, status, modelId, error } = attempt;
  return { messages, kind, status, modelId, error };
}

/** Roles of the four wire formats (and the offline model's SDK prompt) as OpenAI chat roles; others are left out. */
const CHAT_ROLES: Record<string, "system" | "user" | "assistant"> = {
  system: "system",
  developer: "system",
  user: "user",
  assistant: "assistant",
  model: "assistant",
};

/** A content field's text: a string, or the `text` of its parts (OpenAI, Anthropic, Gemini and SDK parts alike). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((part) => (typeof part?.text === "string" && /\S/.test(part.text) ? [part.text as string] : []))
    .join("\n");
}

/**
 * The text messages of a recorded request body, in any of the wire formats: OpenAI chat `messages`, OpenAI
 * Responses `instructions` and `input`, Anthropic `system` and `messages`, Gemini `systemInstruction` and
 * `contents`, or the offline model's SDK `prompt`. Empty when the body is not JSON.
 */
export function requestBodyMessages(body: string | null): ChatExampleMessage[] {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body ?? "null") ?? {};
  } catch {
    return [];
  }
  const systemTexts = [
    parsed.instructions,
    parsed.system,
    (parsed.systemInstruction as { parts?: unknown })?.parts,
  ]
    .map(contentText)
    .filter((text) => text !== "");
  const entries = [parsed.messages, parsed.input, parsed.contents, parsed.prompt].find(Array.isArray) ?? [];
  const messages: ChatExampleMessage[] = [];
  for (const entry of entries as { role?: unknown; content?: unknown; parts?: unknown }[]) {
    const role = CHAT_ROLES[String(entry?.role)];
    const text = contentText(entry?.content ?? entry?.parts);
    if (!role || text === "") continue;
    if (role === "system") systemTexts.push(text);
    else messages.push({ role, content: text });
  }
  if (systemTexts.length > 0) messages.unshift({ role: "system", content: systemTexts.join("\n\n") });
  return messages;
}

export function itemsAsChatMessages(items: readonly ContextItem[]): ChatExampleMessage[] {
  const systemTexts: string[] = [];
  const messages: ChatExampleMessage[] = [];
  for (const item of items) {
    if (item.role === "system") {
      const text = textOf(item.parts);
      if (text) systemTexts.push(text);
      continue;
    }
    if (item.role === "assistant") {
      const text = textOf(item.parts);
      const toolCalls = item.parts.flatMap((part) =>
        part.type === "tool-call"
          ? [
              {
                id: part.toolCallId,
                type: "function" as const,
                function: {
                  name: part.toolName,
                  arguments: typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {}),
                },
              },
            ]
          : [],
      );
      if (text || toolCalls.length > 0)
        messages.push({
          role: "assistant",
          content: text || null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        });
    } else if (item.role === "user") {
      const content = userContent(item.parts);
      if (content.length > 0)
        messages.push({
          role: "user",
          content: content.every((part) => part.type === "text")
            ? content.map((part) => (part as { text: string }).text).join("\n")
            : content,
        });
    }
    // Tool results travel in the item after the call (any role): each is its own tool message.
    for (const part of item.parts) {
      if (part.type !== "tool-result") continue;
      messages.push({
        role: "tool",
        tool_call_id: part.toolCallId,
        content: typeof part.output === "string" ? part.output : JSON.stringify(part.output),
      });
    }
  }
  if (systemTexts.length > 0) messages.unshift({ role: "system", content: systemTexts.join("\n\n") });
  return messages;
}

function textOf(parts: readonly ItemPart[]): string {
  return parts
    .flatMap((part) => (part.type === "text" && /\S/.test(part.text) ? [part.text] : []))
    .join("\n");
}

function userContent(parts: readonly ItemPart[]): ChatContentPart[] {
  const content: ChatContentPart[] = [];
  for (const part of parts) {
    if (part.type === "text" && /\S/.test(part.text)) content.push({ type: "text", text: part.text });
    else if (part.type === "image") content.push({ type: "image_url", image_url: { url: part.url } });
  }
  return content;
}
