// The elements of a recorded request body, per wire format: each message, or each content part where a message
// has several, with its RFC 6901 JSON Pointer, its role, its kind and what identifies it (its text, call id, tool
// name). Wire reconciliation (./wire-reconciliation.ts) finds the payload's items among them
// (docs/features.md#wire-reconciliation). Pure.

/** The request body formats the provider adapters write. */
export type WireFormat = "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "offline";

type ElementRole = "system" | "user" | "assistant" | "tool";
type ElementKind = "text" | "media" | "tool-call" | "tool-result" | "reasoning" | "other";

/** One addressable element of a body: a message, or a content part where a message has several. */
export interface WireElement {
  pointer: string;
  role: ElementRole;
  kind: ElementKind;
  /** The text a reader would see in it (text, reasoning text, a tool result's content). */
  text: string;
  /** The element's value in the body. */
  value: unknown;
  /** Its JSON, made when first needed (media bytes, signatures): most elements are matched by text or id. */
  raw?: string;
  callId?: string;
  toolName?: string;
  /** A provider-run call whose result travels in the same element (OpenAI Responses `file_search_call`). */
  carriesResult?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// The elements of each format

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

/** Escapes a key for a JSON Pointer (RFC 6901: `~` as `~0`, `/` as `~1`). */
function pointerOf(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

export function rawOf(wireElement: WireElement): string {
  wireElement.raw ??= JSON.stringify(wireElement.value) ?? "";
  return wireElement.raw;
}

function element(
  pointer: string,
  role: ElementRole,
  kind: ElementKind,
  value: unknown,
  extra: Partial<WireElement> & { text?: string } = {},
): WireElement {
  return { pointer, role, kind, text: extra.text ?? "", value, ...extra };
}

function normalRole(role: unknown): ElementRole {
  if (role === "system" || role === "developer") return "system";
  if (role === "assistant" || role === "model") return "assistant";
  if (role === "tool" || role === "function") return "tool";
  return "user";
}

const MEDIA_TYPES = new Set([
  "image_url",
  "input_audio",
  "file",
  "input_image",
  "input_file",
  "image",
  "document",
]);

function openAiChatElements(body: Json): WireElement[] {
  const elements: WireElement[] = [];
  for (const [index, message] of asArray(body.messages).entries()) {
    if (!isObject(message)) continue;
    const role = normalRole(message.role);
    if (role === "tool") {
      elements.push(
        element(pointerOf("messages", index), "tool", "tool-result", message, {
          text: asText(message.content),
          callId: asText(message.tool_call_id),
        }),
      );
      continue;
    }
    const calls = asArray(message.tool_calls);
    if (typeof message.content === "string") {
      if (calls.length === 0) {
        elements.push(
          element(pointerOf("messages", index), role, "text", message, { text: message.content }),
        );
      } else if (message.content !== "") {
        elements.push(
          element(pointerOf("messages", index, "content"), role, "text", message.content, {
            text: message.content,
          }),
        );
      }
    } else {
      for (const [partIndex, part] of asArray(message.content).entries()) {
        if (!isObject(part)) continue;
        const pointer = pointerOf("messages", index, "content", partIndex);
        if (part.type === "text")
          elements.push(element(pointer, role, "text", part, { text: asText(part.text) }));
        else
          elements.push(element(pointer, role, MEDIA_TYPES.has(asText(part.type)) ? "media" : "other", part));
      }
    }
    for (const [callIndex, call] of calls.entries()) {
      if (!isObject(call)) continue;
      const fn = isObject(call.function) ? call.function : {};
      elements.push(
        element(pointerOf("messages", index, "tool_calls", callIndex), role, "tool-call", call, {
          callId: asText(call.id),
          toolName: asText(fn.name),
          text: asText(fn.arguments),
        }),
      );
    }
  }
  return elements;
}

function openAiResponsesElements(body: Json): WireElement[] {
  const elements: WireElement[] = [];
  if (typeof body.instructions === "string") {
    elements.push(element("/instructions", "system", "text", body.instructions, { text: body.instructions }));
  }
  for (const [index, entry] of asArray(body.input).entries()) {
    if (!isObject(entry)) continue;
    const pointer = pointerOf("input", index);
    const type = asText(entry.type);
    if (entry.role !== undefined && (type === "" || type === "message")) {
      const role = normalRole(entry.role);
      if (typeof entry.content === "string") {
        elements.push(element(pointer, role, "text", entry, { text: entry.content }));
        continue;
      }
      for (const [partIndex, part] of asArray(entry.content).entries()) {
        if (!isObject(part)) continue;
        const partPointer = pointerOf("input", index, "content", partIndex);
        const partType = asText(part.type);
        if (partType === "input_text" || partType === "output_text" || partType === "text") {
          elements.push(element(partPointer, role, "text", part, { text: asText(part.text) }));
        } else {
          elements.push(element(partPointer, role, MEDIA_TYPES.has(partType) ? "media" : "other", part));
        }
      }
    } else if (type === "function_call" || type === "custom_tool_call") {
      elements.push(
        element(pointer, "assistant", "tool-call", entry, {
          callId: asText(entry.call_id),
          toolName: asText(entry.name),
          text: asText(entry.arguments ?? entry.input),
        }),
      );
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      elements.push(
        element(pointer, "tool", "tool-result", entry, {
          callId: asText(entry.call_id),
          text: asText(entry.output),
        }),
      );
    } else if (type === "reasoning") {
      const summary = asArray(entry.summary)
        .map((part) => (isObject(part) ? asText(part.text) : ""))
        .join("\n\n");
      elements.push(element(pointer, "assistant", "reasoning", entry, { text: summary }));
    } else if (type.endsWith("_call")) {
      // A provider-run tool (file search, web search, code interpreter): the call and its result are one item.
      elements.push(
        element(pointer, "assistant", "tool-call", entry, {
          callId: asText(entry.id),
          toolName: type.slice(0, -"_call".length),
          carriesResult: true,
        }),
      );
    } else {
      elements.push(element(pointer, "assistant", "other", entry, { callId: asText(entry.id) }));
    }
  }
  return elements;
}

function anthropicBlock(pointer: string, role: ElementRole, block: Json): WireElement {
  const type = asText(block.type);
  if (type === "text") return element(pointer, role, "text", block, { text: asText(block.text) });
  if (type === "image" || type === "document") return element(pointer, role, "media", block);
  if (type === "thinking")
    return element(pointer, role, "reasoning", block, { text: asText(block.thinking) });
  if (type === "redacted_thinking") return element(pointer, role, "reasoning", block);
  if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use") {
    return element(pointer, role, "tool-call", block, {
      callId: asText(block.id),
      toolName: asText(block.name),
      text: asText(block.input),
    });
  }
  if (type.endsWith("tool_result")) {
    const content = block.content;
    const text = Array.isArray(content)
      ? content
          .map((part) => (isObject(part) && part.type === "text" ? asText(part.text) : asText(part)))
          .join("")
      : asText(content);
    return element(pointer, type === "tool_result" ? "tool" : role, "tool-result", block, {
      callId: asText(block.tool_use_id),
      text,
    });
  }
  return element(pointer, role, "other", block);
}

function anthropicElements(body: Json): WireElement[] {
  const elements: WireElement[] = [];
  if (typeof body.system === "string") {
    elements.push(element("/system", "system", "text", body.system, { text: body.system }));
  } else {
    for (const [index, block] of asArray(body.system).entries()) {
      if (isObject(block)) elements.push(anthropicBlock(pointerOf("system", index), "system", block));
    }
  }
  for (const [index, message] of asArray(body.messages).entries()) {
    if (!isObject(message)) continue;
    const role = normalRole(message.role);
    if (typeof message.content === "string") {
      elements.push(element(pointerOf("messages", index), role, "text", message, { text: message.content }));
      continue;
    }
    for (const [partIndex, block] of asArray(message.content).entries()) {
      if (isObject(block))
        elements.push(anthropicBlock(pointerOf("messages", index, "content", partIndex), role, block));
    }
  }
  return elements;
}

function geminiPart(pointer: string, role: ElementRole, part: Json): WireElement {
  if (isObject(part.functionCall)) {
    return element(pointer, role, "tool-call", part, {
      toolName: asText(part.functionCall.name),
      callId: part.functionCall.id === undefined ? undefined : asText(part.functionCall.id),
      text: asText(part.functionCall.args),
    });
  }
  if (isObject(part.functionResponse)) {
    return element(pointer, role, "tool-result", part, {
      toolName: asText(part.functionResponse.name),
      callId: part.functionResponse.id === undefined ? undefined : asText(part.functionResponse.id),
      text: asText(part.functionResponse.response),
    });
  }
  if (isObject(part.inlineData) || isObject(part.fileData)) return element(pointer, role, "media", part);
  if (typeof part.text === "string") {
    return element(pointer, role, part.thought === true ? "reasoning" : "text", part, { text: part.text });
  }
  return element(pointer, role, "other", part);
}

function geminiElements(body: Json): WireElement[] {
  const elements: WireElement[] = [];
  const system = isObject(body.systemInstruction) ? body.systemInstruction : null;
  for (const [index, part] of asArray(system?.parts).entries()) {
    if (isObject(part))
      elements.push(geminiPart(pointerOf("systemInstruction", "parts", index), "system", part));
  }
  for (const [index, content] of asArray(body.contents).entries()) {
    if (!isObject(content)) continue;
    const role = normalRole(content.role);
    for (const [partIndex, part] of asArray(content.parts).entries()) {
      if (isObject(part))
        elements.push(geminiPart(pointerOf("contents", index, "parts", partIndex), role, part));
    }
  }
  return elements;
}

/**
 * The offline model's "body" is what it was given: the AI SDK prompt of a streamed call (`prompt`: system text,
 * then messages of content parts), or for a summary or title it answers itself the call's own arguments
 * (`instructions` and a `prompt` text, or `messages`).
 */
function offlineElements(body: Json): WireElement[] {
  const elements: WireElement[] = [];
  const instructions = isObject(body.instructions) ? body.instructions.content : body.instructions;
  if (typeof instructions === "string") {
    const pointer = isObject(body.instructions) ? "/instructions/content" : "/instructions";
    elements.push(element(pointer, "system", "text", instructions, { text: instructions }));
  }
  if (typeof body.prompt === "string") {
    elements.push(element("/prompt", "user", "text", body.prompt, { text: body.prompt }));
  }
  for (const key of ["prompt", "messages"]) elements.push(...offlineMessages(key, asArray(body[key])));
  return elements;
}

function offlineMessages(key: string, messages: unknown[]): WireElement[] {
  const elements: WireElement[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isObject(message)) continue;
    const role = normalRole(message.role);
    if (typeof message.content === "string") {
      elements.push(element(pointerOf(key, index), role, "text", message, { text: message.content }));
      continue;
    }
    for (const [partIndex, part] of asArray(message.content).entries()) {
      if (!isObject(part)) continue;
      const pointer = pointerOf(key, index, "content", partIndex);
      const type = asText(part.type);
      if (type === "text") elements.push(element(pointer, role, "text", part, { text: asText(part.text) }));
      else if (type === "reasoning")
        elements.push(element(pointer, role, "reasoning", part, { text: asText(part.text) }));
      else if (type === "file") elements.push(element(pointer, role, "media", part));
      else if (type === "tool-call" || type === "tool-result") {
        elements.push(
          element(pointer, role, type, part, {
            callId: asText(part.toolCallId),
            toolName: asText(part.toolName),
            text: asText(type === "tool-call" ? part.input : part.output),
          }),
        );
      } else elements.push(element(pointer, role, "other", part));
    }
  }
  return elements;
}

const ELEMENTS_OF: Record<WireFormat, (body: Json) => WireElement[]> = {
  "openai-chat": openAiChatElements,
  "openai-responses": openAiResponsesElements,
  anthropic: anthropicElements,
  gemini: geminiElements,
  offline: offlineElements,
};

/** Every addressable element of a body, in body order (system elements first where the format puts them apart). */
export function wireElements(format: WireFormat, body: unknown): WireElement[] {
  return isObject(body) ? ELEMENTS_OF[format](body) : [];
}

/** The value at an RFC 6901 JSON Pointer, or undefined when it does not resolve. */
export function valueAtPointer(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  if (!pointer.startsWith("/")) return undefined;
  let value: unknown = document;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= value.length) return undefined;
      value = value[Number(key)];
    } else if (isObject(value) && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

/** Which adapter wrote a recorded request, from the URL it went to (each API has its own path). */
export function wireFormatOfUrl(url: string): WireFormat | null {
  if (url.startsWith("offline://")) return "offline";
  let path: string;
  try {
    path = new URL(url, "http://relative.invalid").pathname;
  } catch {
    return null;
  }
  if (path.endsWith("/chat/completions")) return "openai-chat";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith("/messages")) return "anthropic";
  if (/:(stream)?generateContent$/i.test(path)) return "gemini";
  return null;
}

/** Whether a recorded body is a JSON object, the only kind of body that has elements to map. */
export function isJsonObjectText(body: string): boolean {
  return /^\s*\{/.test(body);
}
