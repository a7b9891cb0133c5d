// Wire reconciliation (docs/features.md#wire-reconciliation): after a request body is captured, each payload item
// is found in it and given its address: RFC 6901 JSON Pointers to the body elements that carry it. The items say
// what the pipeline meant to send; the pointers say where the provider adapter put it, so an item the adapter left
// out is marked dropped (with the reason, from the adapter's warnings when it gave one) and a body element no item
// explains is listed as unclaimed. Pure: no I/O, runs on any recorded body.

import type { UnclaimedElement, WireAddress } from "@/db/attempt-records";
import type { ContextItem, ItemPart } from "@/lib/domain/types";
import {
  isJsonObjectText,
  rawOf,
  valueAtPointer,
  type WireElement,
  type WireFormat,
  wireElements,
  wireFormatOfUrl,
} from "./wire-elements";

// The stored shapes of an address and an unclaimed element are the attempt row's (db/schema.ts).
export type { UnclaimedElement, WireAddress };

export interface WireMap {
  /** One per item, in the items' order (item ids need not be unique: two notices of one message share theirs). */
  addresses: WireAddress[];
  unclaimed: UnclaimedElement[];
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
