// Wire reconciliation (docs/features.md#wire-reconciliation): after a request body is captured, each payload item
// is found in it and given its address: RFC 6901 JSON Pointers to the body elements that carry it. The items say
// what the pipeline meant to send; the pointers say where the provider adapter put it, so an item the adapter left
// out is marked dropped (with the reason, from the adapter's warnings when it gave one) and a body element no item
// explains is listed as unclaimed. Pure: no I/O, runs on any recorded body.

import type { UnclaimedElement, WireAddress } from "@/db/schema";
import type { ContextItem, ItemPart, ModelDescriptor } from "@/lib/context/types";

/** The request body formats the provider adapters write. */
export type WireFormat = "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "offline";

export function wireFormatOf(model: Pick<ModelDescriptor, "provider" | "apiKind">): WireFormat {
  switch (model.provider) {
    case "anthropic":
      return "anthropic";
    case "google":
      return "gemini";
    case "offline":
      return "offline";
    case "openai":
      return model.apiKind === "responses" ? "openai-responses" : "openai-chat";
    case "openai-compatible":
      return "openai-chat";
  }
}

// The stored shapes of an address and an unclaimed element are the attempt row's (db/schema.ts).
export type { UnclaimedElement, WireAddress };

export interface WireMap {
  /** One per item, in the items' order (item ids need not be unique: two notices of one message share theirs). */
  addresses: WireAddress[];
  unclaimed: UnclaimedElement[];
}

type ElementRole = "system" | "user" | "assistant" | "tool";
type ElementKind = "text" | "media" | "tool-call" | "tool-result" | "reasoning" | "other";

/** One addressable element of a body: a message, or a content part where a message has several. */
interface WireElement {
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

function rawOf(wireElement: WireElement): string {
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

// ---------------------------------------------------------------------------------------------------------------
// Matching items to elements

type Needle =
  | { part: number; kind: "text"; text: string }
  | { part: number; kind: "media"; marks: string[] }
  | { part: number; kind: "tool-call" | "tool-result"; callId: string; toolName: string }
  | { part: number; kind: "reasoning"; text: string; signatures: string[] };

const NON_BLANK = /\S/;

/** Long string values of a part's provider metadata (signatures, encrypted content, item ids). */
function metadataStrings(part: ItemPart): string[] {
  if (!("providerMetadata" in part) || part.providerMetadata === undefined) return [];
  const values: string[] = [];
  for (const entry of Object.values(part.providerMetadata)) {
    for (const value of Object.values(entry ?? {}))
      if (typeof value === "string" && value.length >= 16) values.push(value);
  }
  return values;
}

/**
 * What shows a media part in a body: an https URL as it is; a data URL's base64 (enough of it to recognise), or in
 * a stored body, where base64 is elided (media-elision.ts), the marker's byte count.
 */
function mediaMarks(url: string): string[] {
  if (!url.startsWith("data:")) return url.length > 0 ? [url] : [];
  const base64 = url.slice(url.indexOf(",") + 1);
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return [base64.slice(0, 256), ` bytes=${(base64.length * 3) / 4 - padding}]`];
}

function needlesOf(item: ContextItem): Needle[] {
  const needles: Needle[] = [];
  for (const [index, part] of item.parts.entries()) {
    switch (part.type) {
      case "text":
        if (NON_BLANK.test(part.text)) needles.push({ part: index, kind: "text", text: part.text.trim() });
        break;
      case "image":
      case "video":
      case "audio":
      case "file":
        needles.push({ part: index, kind: "media", marks: mediaMarks(part.url) });
        break;
      case "tool-call":
      case "tool-result":
        needles.push({ part: index, kind: part.type, callId: part.toolCallId, toolName: part.toolName });
        break;
      case "reasoning":
        // Serialisation sends hidden reasoning (no text, only provider metadata) too.
        if (NON_BLANK.test(part.text) || part.providerMetadata !== undefined) {
          needles.push({
            part: index,
            kind: "reasoning",
            text: part.text.trim(),
            signatures: metadataStrings(part),
          });
        }
        break;
      case "media":
        // A phase-A placeholder that phase B did not resolve is never sent.
        break;
    }
  }
  return needles;
}

/** Whether an element carries the needle: exactly (bytes, ids, text), not by position. */
function carries(element: WireElement, needle: Needle, system: boolean): boolean {
  if ((element.role === "system") !== system) return false;
  switch (needle.kind) {
    case "text":
      return element.kind === "text" && element.text.includes(needle.text);
    case "media":
      return element.kind === "media" && needle.marks.some((mark) => rawOf(element).includes(mark));
    case "tool-call":
      return element.kind === "tool-call" && sameCall(element, needle);
    case "tool-result":
      return (
        (element.kind === "tool-result" && sameCall(element, needle)) ||
        (element.kind === "tool-call" && element.carriesResult === true && sameCall(element, needle))
      );
    case "reasoning":
      if (element.kind !== "reasoning") return false;
      if (needle.text !== "" && element.text.includes(needle.text)) return true;
      return needle.signatures.some((signature) => rawOf(element).includes(signature));
  }
}

/** Gemini's calls carry no id unless the provider gave one: they are told apart by name, in order. */
function sameCall(element: WireElement, needle: { callId: string; toolName: string }): boolean {
  if (element.callId !== undefined && element.callId !== "") return element.callId === needle.callId;
  return element.toolName === needle.toolName;
}

/** When nothing carries a needle exactly: the next unclaimed element of its kind (media the adapter re-encoded). */
function loosely(element: WireElement, needle: Needle, system: boolean): boolean {
  if ((element.role === "system") !== system) return false;
  if (needle.kind === "media") return element.kind === "media";
  if (needle.kind !== "reasoning") return false;
  // Reasoning an adapter could not send as reasoning but wrote as plain text is still in the body, as text.
  if (element.kind === "text") return needle.text !== "" && element.text.includes(needle.text);
  return element.kind === "reasoning" && needle.text === "";
}

const PREVIEW_LENGTH = 60;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH)}…` : flat;
}

function describeElement(element: WireElement): string {
  if (element.kind === "text" && element.text === "") return `${element.role} message with no content`;
  const kind =
    element.kind === "other"
      ? ((element.value as { type?: string } | null)?.type ?? "element")
      : element.kind.replace("-", " ");
  const name = element.toolName ? ` ${element.toolName}` : "";
  const id = element.callId ? ` (${element.callId})` : "";
  const text = element.text ? `: “${preview(element.text)}”` : "";
  return `${element.role} ${kind}${name}${id}${text}`;
}

/** Words in an adapter warning that say which kind of part it is about. */
const WARNING_TOPICS: Record<Needle["kind"], RegExp> = {
  text: /text|message/i,
  media: /file|image|media|audio|video|pdf|document/i,
  "tool-call": /tool|function/i,
  "tool-result": /tool|function/i,
  reasoning: /reason|thinking|thought/i,
};

/** Who writes each format's body, as the subject of a dropped item's reason. */
const WRITERS: Record<WireFormat, string> = {
  "openai-chat": "The OpenAI chat completions adapter",
  "openai-responses": "The OpenAI Responses adapter",
  anthropic: "The Anthropic Messages adapter",
  gemini: "The Gemini adapter",
  offline: "The offline model's call",
};

function droppedReason(format: WireFormat, kinds: Needle["kind"][], warnings: readonly string[]): string {
  for (const kind of kinds) {
    const warning = warnings.find((text) => WARNING_TOPICS[kind].test(text));
    if (warning) return `${WRITERS[format]} left it out: ${warning}`;
  }
  if (kinds.length === 0) return "It has nothing a provider can be sent (no text, media or tool part).";
  return `${WRITERS[format]} left it out: no element of the request body carries it.`;
}

/**
 * Finds each item in the body. Items are in payload order and the adapters keep that order, so each item is
 * looked for from where the previous one was found: an element no item has claimed first, then (several items
 * written into one element) one already claimed.
 */
export function reconcileWire({
  format,
  body,
  items,
  warnings = [],
}: {
  format: WireFormat;
  /** The body as sent (parsed), or its text. */
  body: unknown;
  items: readonly ContextItem[];
  /** The adapter's warnings for this request (the AI SDK's call warnings), as text. */
  warnings?: readonly string[];
}): WireMap {
  const parsed = typeof body === "string" ? parseBody(body) : body;
  const elements = wireElements(format, parsed);
  const claimedBy = new Map<number, Set<number>>();
  const addresses: WireAddress[] = [];
  let cursor = 0;

  const claim = (index: number, itemIndex: number) => {
    const owners = claimedBy.get(index) ?? new Set<number>();
    owners.add(itemIndex);
    claimedBy.set(index, owners);
  };
  const find = (needle: Needle, system: boolean, from: number, itemIndex: number): number => {
    const rules = [
      (index: number) => !claimedBy.has(index) && carries(elements[index], needle, system),
      (index: number) => carries(elements[index], needle, system) && !claimedBy.get(index)?.has(itemIndex),
      (index: number) => carries(elements[index], needle, system),
    ];
    for (const rule of rules) {
      for (let index = from; index < elements.length; index++) if (rule(index)) return index;
    }
    // Not carried exactly: only the very next unclaimed element may stand for it, so a guess never skips ahead.
    for (let index = from; index < elements.length; index++) {
      if (claimedBy.has(index) || (elements[index].role === "system") !== system) continue;
      return loosely(elements[index], needle, system) ? index : -1;
    }
    return -1;
  };

  for (const [itemIndex, item] of items.entries()) {
    const system = item.role === "system";
    const needles = needlesOf(item);
    const found: number[] = [];
    const missing: Needle[] = [];
    for (const needle of needles) {
      const index = find(needle, system, system ? 0 : cursor, itemIndex);
      if (index < 0) missing.push(needle);
      else {
        found.push(index);
        claim(index, itemIndex);
      }
    }
    const address: WireAddress = { wirePaths: [] };
    if (found.length === 0) {
      address.dropped = {
        reason: droppedReason(
          format,
          needles.map((needle) => needle.kind),
          warnings,
        ),
      };
    } else {
      address.wirePaths = [...new Set(found)].sort((a, b) => a - b).map((index) => elements[index].pointer);
      if (!system) cursor = Math.max(cursor, Math.max(...found));
      if (missing.length > 0) {
        address.droppedParts = missing.map((needle) => ({
          part: needle.part,
          reason: droppedReason(format, [needle.kind], warnings),
        }));
      }
    }
    addresses.push(address);
  }

  // Elements that carry only a signature (a Gemini empty text part with a `thoughtSignature`) belong to the item
  // whose part the signature came with.
  for (const [index, wireElement] of elements.entries()) {
    if (claimedBy.has(index)) continue;
    const owner = items.findIndex(
      (item, itemIndex) =>
        addresses[itemIndex].dropped === undefined &&
        item.parts.some((part) => metadataStrings(part).some((value) => rawOf(wireElement).includes(value))),
    );
    if (owner >= 0) {
      claim(index, owner);
      addresses[owner].wirePaths = elements
        .map((candidate, candidateIndex) =>
          claimedBy.get(candidateIndex)?.has(owner) ? candidate.pointer : null,
        )
        .filter((pointer): pointer is string => pointer !== null);
    }
  }

  for (const owners of claimedBy.values()) {
    if (owners.size < 2) continue;
    for (const owner of owners) addresses[owner].merged = true;
  }
  const unclaimed = elements
    .filter((_, index) => !claimedBy.has(index))
    .map((wireElement) => ({ pointer: wireElement.pointer, what: describeElement(wireElement) }));
  return { addresses, unclaimed };
}

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Checking a map against its body

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

/**
 * What is wrong with a map, in sentences (empty when nothing is): every pointer resolves; each sent item's text is
 * inside the value at its pointers; every element of the body is claimed or listed unclaimed; an item with no
 * pointer says why it was dropped, and a dropped one has none.
 */
export function wireMapProblems({
  format,
  body,
  items,
  map,
}: {
  format: WireFormat;
  body: unknown;
  items: readonly ContextItem[];
  map: WireMap;
}): string[] {
  const parsed = typeof body === "string" ? parseBody(body) : body;
  const problems: string[] = [];
  const claimed = new Set<string>();
  for (const [itemIndex, item] of items.entries()) {
    const address = map.addresses[itemIndex];
    if (!address) {
      problems.push(`item ${item.id} has no address`);
      continue;
    }
    if (address.wirePaths.length === 0 && !address.dropped)
      problems.push(`item ${item.id} has no pointer and no reason`);
    if (address.wirePaths.length > 0 && address.dropped)
      problems.push(`item ${item.id} is dropped yet has pointers`);
    const values: string[] = [];
    for (const pointer of address.wirePaths) {
      claimed.add(pointer);
      const value = valueAtPointer(parsed, pointer);
      if (value === undefined) problems.push(`item ${item.id}: ${pointer} does not resolve`);
      else values.push(typeof value === "string" ? value : JSON.stringify(value));
    }
    if (address.dropped) continue;
    const droppedParts = new Set((address.droppedParts ?? []).map((entry) => entry.part));
    for (const [index, part] of item.parts.entries()) {
      if (part.type !== "text" || droppedParts.has(index) || !NON_BLANK.test(part.text)) continue;
      const escaped = JSON.stringify(part.text.trim()).slice(1, -1);
      if (!values.some((value) => value.includes(part.text.trim()) || value.includes(escaped))) {
        problems.push(
          `item ${item.id}: its text “${preview(part.text)}” is not at ${address.wirePaths.join(", ")}`,
        );
      }
    }
  }
  for (const entry of map.unclaimed) {
    if (valueAtPointer(parsed, entry.pointer) === undefined)
      problems.push(`unclaimed ${entry.pointer} does not resolve`);
    claimed.add(entry.pointer);
  }
  for (const wireElement of wireElements(format, parsed)) {
    if (!claimed.has(wireElement.pointer))
      problems.push(`${wireElement.pointer} is neither claimed nor listed unclaimed`);
  }
  return problems;
}

/** An AI SDK call warning (`SharedV4Warning`) as the sentence an attempt stores. */
export function warningText(
  warning:
    | { type: "unsupported" | "compatibility"; feature: string; details?: string }
    | { type: "deprecated"; setting: string; message: string }
    | { type: "other"; message: string },
): string {
  switch (warning.type) {
    case "unsupported":
      return `${warning.feature} is not supported${warning.details ? `: ${warning.details}` : ""}`;
    case "compatibility":
      return `${warning.feature} is sent in a compatibility mode${warning.details ? `: ${warning.details}` : ""}`;
    case "deprecated":
      return `${warning.setting} is deprecated: ${warning.message}`;
    case "other":
      return warning.message;
  }
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

/** A request's items each with its address in that request's body; the items as they are when there is no map. */
export function reconcileRequest<Item extends ContextItem>(
  items: readonly Item[],
  request: { url: string; body: string },
  warnings: readonly string[] = [],
): { items: (Item & Partial<WireAddress>)[]; unclaimed: UnclaimedElement[]; warnings: string[] } {
  const format = wireFormatOfUrl(request.url);
  if (format === null || !isJsonObjectText(request.body))
    return { items: [...items], unclaimed: [], warnings: [...warnings] };
  const map = reconcileWire({ format, body: request.body, items, warnings });
  return {
    items: items.map((item, index) => ({ ...item, ...map.addresses[index] })),
    unclaimed: map.unclaimed,
    warnings: [...warnings],
  };
}

/** Whether a recorded body is a JSON object, the only kind of body that has elements to map. */
export function isJsonObjectText(body: string): boolean {
  return /^\s*\{/.test(body);
}
