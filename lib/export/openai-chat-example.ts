// One attempt as a training or eval example in OpenAI's chat format: `{ "messages": [...] }`, the items the attempt
// sent followed by the reply it got. System items become one system message (the wire sends them as one block),
// media become `image_url` parts (data URLs), tool calls and results keep their ids. Reasoning is the model's own
// and is left out, as OpenAI's format has no place for it. Pure.

import type { ContextItem, ItemPart } from "@/lib/context/types";

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

interface AttemptLike {
  status: string;
  items: unknown[];
  response: { text: string } | null;
}

/** Null for an attempt that got no reply (failed or stopped): there is nothing to learn from. */
export function attemptAsChatExample(attempt: AttemptLike): ChatExample | null {
  if (attempt.status !== "ok" || !attempt.response) return null;
  const messages = itemsAsChatMessages(attempt.items as ContextItem[]);
  messages.push({ role: "assistant", content: attempt.response.text });
  return { messages };
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
