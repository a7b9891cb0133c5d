// Phase B's reasoning replay check (docs/pipeline.md#replayable-reasoning): a stored reasoning part goes back
// only when the attempt's provider can take it back, which depends on the provider, its API and the metadata the
// part carries. The provider packages skip what they cannot send without a word, so a part they would skip is
// removed here, before the budget, and the token bar, the budget and the cost count only what the body holds.
// Every removal is a trace event naming the provider and why, with the removed items as they were.

import type {
  ContextItem,
  ItemPart,
  ModelDescriptor,
  ProviderMetadata,
  TraceEvent,
} from "@/lib/domain/types";
import type { PhaseBContext } from "./phases";
import type { Stage, StageResult } from "./stage";
import { countItemTokens, countPartTokens } from "./tokens";
import { plural, traceEvent } from "./trace";

type ReasoningPart = Extract<ItemPart, { type: "reasoning" }>;

/** How much of a removed part's text the trace keeps for the inspector. */
export const REMOVED_PREVIEW_CHARS = 160;

/** One removed item (or the removed reasoning of an item that keeps other parts), as the inspector shows it. */
export interface RemovedItem {
  id: string;
  role: ContextItem["role"];
  tag: ContextItem["tag"];
  /** The start of the removed reasoning text; empty when the provider hid it. */
  preview: string;
  /** What the removed parts would have cost under the attempt's tokenizer (a whole item with its framing). */
  tokens: number;
  /** True when only some parts of the item went (it stays in the payload with the rest). */
  partial: boolean;
}

function nonEmptyString(value: unknown): boolean {
  return typeof value === "string" && value.length > 0;
}

/** The provider keys a part's metadata names, for a reason that says where the reasoning came from. */
function origin(metadata: ProviderMetadata | undefined): string {
  const keys = metadata === undefined ? [] : Object.keys(metadata);
  return keys.length === 0
    ? "it carries no provider metadata"
    : `it carries only ${keys.join(", ")} metadata`;
}

/**
 * The Responses reasoning items (by `openai.itemId`) that one of these parts carries the encrypted content of. A
 * reasoning item with several summary parts is stored as several parts of one item, and the stream may give the
 * encrypted content to the last only; the provider package sends them as one reasoning item with it, so each goes
 * back.
 */
export function encryptedReasoningItemIds(parts: readonly ItemPart[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const part of parts) {
    if (part.type !== "reasoning") continue;
    const openai = part.providerMetadata?.openai;
    if (typeof openai?.itemId === "string" && nonEmptyString(openai.reasoningEncryptedContent))
      ids.add(openai.itemId);
  }
  return ids;
}

const NO_IDS: ReadonlySet<string> = new Set();

function carriesGoogleMetadata(item: ContextItem): boolean {
  return item.parts.some((part) => "providerMetadata" in part && part.providerMetadata?.google !== undefined);
}

/** Whether an item belongs to a Gemini reply step: it, or another item of its step, carries Google metadata. */
function googleStepOf(items: readonly ContextItem[]): (item: ContextItem) => boolean {
  const steps = new Set<string>();
  for (const item of items) if (item.step !== undefined && carriesGoogleMetadata(item)) steps.add(item.step);
  return (item) => carriesGoogleMetadata(item) || (item.step !== undefined && steps.has(item.step));
}

function isEncryptedElsewhere(itemId: unknown, encryptedItemIds: ReadonlySet<string>): boolean {
  return typeof itemId === "string" && encryptedItemIds.has(itemId);
}

/**
 * Why the model's provider cannot take this reasoning part back, or null when it can. The metadata keys are the
 * ones the AI SDK provider packages read when they turn a reasoning part into their wire format.
 * `encryptedItemIds`: the Responses reasoning items whose encrypted content travels in the same message
 * (`encryptedReasoningItemIds` of the part's item).
 */
export function reasoningRefusal(
  part: ReasoningPart,
  model: ModelDescriptor,
  encryptedItemIds: ReadonlySet<string> = NO_IDS,
  /** The part came in a Gemini reply step (another part of its step carries Google metadata). */
  inGoogleStep = false,
): string | null {
  const metadata = part.providerMetadata;
  if (!model.capabilities.reasoning)
    return `${model.id} does not reason, so it is sent no reasoning (another model's thoughts)`;
  switch (model.provider) {
    case "offline":
      // The offline model is handed the prompt as it is and records it as its request body: it takes everything.
      return null;
    case "openai-compatible":
      return "OpenAI-compatible chat completions have no field for reasoning: it is never sent back";
    case "openai":
      if (model.apiKind === "chat")
        return "OpenAI chat completions have no field for reasoning: it is never sent back";
      // Every Responses request is stateless (store: false), so reasoning goes back only as its encrypted content.
      return nonEmptyString(metadata?.openai?.reasoningEncryptedContent) ||
        isEncryptedElsewhere(metadata?.openai?.itemId, encryptedItemIds)
        ? null
        : `OpenAI Responses requests are stateless (store: false) and take reasoning back only with its encrypted content (openai.reasoningEncryptedContent); ${origin(metadata)}`;
    case "anthropic":
      return nonEmptyString(metadata?.anthropic?.signature) ||
        nonEmptyString(metadata?.anthropic?.redactedData)
        ? null
        : `Anthropic takes thinking back only with its own signature (anthropic.signature or anthropic.redactedData); ${origin(metadata)}`;
    case "google":
      // Gemini signs the call or text of a step, not its thought: an unsigned thought goes back with the step it
      // came in, as the tool loop itself sends it (docs/features.md#tools).
      return nonEmptyString(metadata?.google?.thoughtSignature) ||
        (inGoogleStep && Object.keys(metadata ?? {}).every((key) => key === "google"))
        ? null
        : `Google takes thoughts back only with its own thoughtSignature (google.thoughtSignature); ${origin(metadata)}`;
  }
}

function previewOf(parts: readonly ReasoningPart[]): string {
  const text = parts
    .map((part) => part.text)
    .filter((part) => part.length > 0)
    .join("\n");
  return text.length > REMOVED_PREVIEW_CHARS ? `${text.slice(0, REMOVED_PREVIEW_CHARS)}…` : text;
}

interface Removal {
  itemIds: string[];
  removed: RemovedItem[];
}

/**
 * Removes the reasoning parts the model's provider cannot take back; an item left with no part goes whole. One
 * `reasoning/not-replayable` event per distinct reason. Unchanged items are the same objects; with nothing
 * removed the input array itself is returned.
 */
export function keepReplayableReasoning(
  items: readonly ContextItem[],
  model: ModelDescriptor,
): StageResult<readonly ContextItem[]> {
  const inGoogleStep = googleStepOf(items);
  let firstTouched = -1;
  for (let index = 0; index < items.length && firstTouched === -1; index += 1) {
    const item = items[index];
    if (item === undefined || !item.parts.some((part) => part.type === "reasoning")) continue;
    const encrypted = encryptedReasoningItemIds(item.parts);
    for (const part of item.parts)
      if (
        part.type === "reasoning" &&
        reasoningRefusal(part, model, encrypted, inGoogleStep(item)) !== null
      ) {
        firstTouched = index;
        break;
      }
  }
  if (firstTouched === -1) return { value: items, trace: [] };

  const out: ContextItem[] = items.slice(0, firstTouched);
  const byReason = new Map<string, Removal>();
  for (let index = firstTouched; index < items.length; index += 1) {
    const item = items[index];
    if (item === undefined) continue;
    if (!item.parts.some((part) => part.type === "reasoning")) {
      out.push(item);
      continue;
    }
    const encrypted = encryptedReasoningItemIds(item.parts);
    const kept: ItemPart[] = [];
    const removedByReason = new Map<string, ReasoningPart[]>();
    for (const part of item.parts) {
      const refusal =
        part.type === "reasoning" ? reasoningRefusal(part, model, encrypted, inGoogleStep(item)) : null;
      if (refusal === null || part.type !== "reasoning") {
        kept.push(part);
        continue;
      }
      const parts = removedByReason.get(refusal);
      if (parts === undefined) removedByReason.set(refusal, [part]);
      else parts.push(part);
    }
    if (removedByReason.size === 0) {
      out.push(item);
      continue;
    }
    const whole = kept.length === 0;
    // The budget counts the item again from what is left (0 means "not counted yet").
    if (!whole) out.push({ ...item, parts: kept, tokens: 0 });
    for (const [reason, parts] of removedByReason) {
      let removal = byReason.get(reason);
      if (removal === undefined) {
        removal = { itemIds: [], removed: [] };
        byReason.set(reason, removal);
      }
      removal.itemIds.push(item.id);
      const tokens =
        whole && removedByReason.size === 1
          ? countItemTokens(item, model.tokenizer)
          : parts.reduce((sum, part) => sum + countPartTokens(part, model.tokenizer), 0);
      removal.removed.push({
        id: item.id,
        role: item.role,
        tag: item.tag,
        preview: previewOf(parts),
        tokens,
        partial: !whole,
      });
    }
  }

  const trace: TraceEvent[] = [];
  for (const [reason, removal] of byReason) {
    const tokens = removal.removed.reduce((sum, entry) => sum + entry.tokens, 0);
    trace.push(
      traceEvent(
        "reasoning",
        "not-replayable",
        `${reason}: the reasoning of ${plural(removal.itemIds.length, "item")} is left out`,
        {
          itemIds: removal.itemIds,
          counts: { items: removal.itemIds.length, tokens },
          details: { removedItems: removal.removed },
        },
      ),
    );
  }
  return { value: out, trace };
}

/** Phase B: reasoning the attempt's provider cannot take back is removed before anything is counted. */
export const replayableReasoningStage: Stage<readonly ContextItem[], readonly ContextItem[], PhaseBContext> =
  {
    name: "reasoning",
    run: (items, { model }) => keepReplayableReasoning(items, model),
  };
