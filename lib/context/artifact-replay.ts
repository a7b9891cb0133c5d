// Stage 6 (seed 004): artifact replay. Each assistant message's stored artifacts come back in the order they
// happened, between the pieces of its text: reasoning, tool calls and tool outputs. Types that are never replayed
// (web search, image generation, file search, shell, …: anything but function calls, outputs and reasoning) are
// dropped; a call without its output (or an output without its call) within the message is dropped; an old, long
// tool output is pruned to head + note + tail; reasoning follows `reasoning.persist`. A missing artifact is a trace
// warning, never an error: the text still replays. Items left with no parts at all are dropped here.

import { messageItemId, messageLayout } from "./role-mapping";
import type { ResolvedSettings } from "./settings";
import { plural, traceEvent, traceWarning } from "./trace";
import type { ContextItem, ItemPart, ItemRole, StoredArtifact, StoredMessage, TraceEvent } from "./types";

/** Only these artifact types are sent back to a model; everything else (provider-run tools) is not replayable. */
export const REPLAYABLE_ARTIFACT_TYPES: ReadonlySet<string> = new Set(["function_call", "function_call_output", "reasoning"]);

/**
 * Turn index of each item, as seed 004 counts turns: a user item starts a new turn unless the previous dialogue
 * item was also a user's (consecutive user messages share a turn); an assistant item before any user is turn 0;
 * tool items inherit the current turn. `totalTurns` includes the current input's turn when it follows
 * (`currentInputFollows`: the current input is a user message, so it opens a turn unless the last item was a user's).
 */
export function computeTurnIndices(roles: readonly ItemRole[], currentInputFollows = true): { turns: number[]; totalTurns: number } {
  const turns: number[] = new Array(roles.length);
  let turn = -1;
  let previousDialogueRole: ItemRole | null = null;
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i];
    if (role === "user") {
      if (previousDialogueRole !== "user") turn++;
      previousDialogueRole = "user";
    } else if (role === "assistant") {
      previousDialogueRole = "assistant";
    }
    turns[i] = Math.max(turn, 0);
  }
  let totalTurns = turn + 1;
  if (roles.length > 0 && turn === -1) totalTurns = 1; // only assistant items: all turn 0
  if (currentInputFollows && previousDialogueRole !== "user") totalTurns++;
  return { turns, totalTurns };
}

/** Tool output as text: strings as they are, anything else as JSON. */
export function toolOutputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined || output === null) return "";
  return JSON.stringify(output) ?? "";
}

/**
 * Head + note + tail (seed 004's `_prune_tool_output`): the first `head` characters (trailing space trimmed),
 * "...\n[tool output pruned: removed N chars, older than K turns]\n...", then the last `tail` characters
 * (leading space trimmed), joined by newlines. N is what was cut from the middle.
 */
export function pruneToolOutput(text: string, options: { head: number; tail: number; retentionTurns: number }): { text: string; removed: number } {
  const head = text.slice(0, options.head).trimEnd();
  const tail = options.tail > 0 ? text.slice(Math.max(options.head, text.length - options.tail)).trimStart() : "";
  const removed = Math.max(0, text.length - options.head - options.tail);
  const note = `...\n[tool output pruned: removed ${plural(removed, "char")}, older than ${plural(options.retentionTurns, "turn")}]\n...`;
  return { text: `${head}\n${note}\n${tail}`, removed };
}

type Replayable =
  | { kind: "call"; artifact: StoredArtifact; callId: string; name: string; input: unknown }
  | { kind: "output"; artifact: StoredArtifact; callId: string; name: string | null; output: unknown }
  | { kind: "reasoning"; artifact: StoredArtifact; text: string; providerMetadata?: Record<string, unknown> };

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** Tool-call arguments as the model wrote them: parse a JSON string when it parses, else keep the string. */
function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Normalise a stored artifact (seed 004's normalize_persisted_item); null when it is malformed. */
function normalise(artifact: StoredArtifact): Replayable | null {
  const payload = artifact.payload;
  switch (artifact.type) {
    case "function_call":
      if (!nonEmptyString(payload.callId) || !nonEmptyString(payload.name) || payload.arguments === undefined || payload.arguments === null) return null;
      return { kind: "call", artifact, callId: payload.callId, name: payload.name, input: parseArguments(payload.arguments) };
    case "function_call_output":
      if (!nonEmptyString(payload.callId)) return null;
      return { kind: "output", artifact, callId: payload.callId, name: nonEmptyString(payload.name) ? payload.name : null, output: payload.output ?? "" };
    case "reasoning": {
      if (typeof payload.text !== "string") return null;
      const reasoning: Replayable = { kind: "reasoning", artifact, text: payload.text };
      if (payload.providerMetadata && typeof payload.providerMetadata === "object") {
        reasoning.providerMetadata = payload.providerMetadata as Record<string, unknown>;
      }
      return reasoning;
    }
    default:
      return null;
  }
}

const TAG_OF = { call: "TOOL_CALL", output: "TOOL_RESULT", reasoning: "REASONING" } as const;
const ROLE_OF = { call: "assistant", output: "tool", reasoning: "assistant" } as const;

interface ReplayContext {
  settings: ResolvedSettings;
  artifactsById: ReadonlyMap<string, StoredArtifact>;
  trace: TraceEvent[];
  replayedReasoningIds: string[];
}

/** Expand one assistant message item into its text pieces and artifact items, in part order. */
function expandMessage(item: ContextItem, message: StoredMessage, isOld: boolean, context: ReplayContext, out: ContextItem[]): void {
  const { settings, trace } = context;
  const messageIds = [message.id];

  // 1. Load in part order; missing and non-replayable ones are reported and skipped.
  const loaded: StoredArtifact[] = [];
  const missing: string[] = [];
  const notReplayable: string[] = [];
  const malformed: string[] = [];
  for (const part of message.parts) {
    if (part.type !== "artifact") continue;
    const artifact = context.artifactsById.get(part.artifactId);
    if (artifact === undefined) missing.push(part.artifactId);
    else if (!REPLAYABLE_ARTIFACT_TYPES.has(artifact.type)) notReplayable.push(artifact.id);
    else loaded.push(artifact);
  }
  if (missing.length > 0) {
    trace.push(
      traceWarning("artifacts", "missing-artifact", `${plural(missing.length, "artifact")} of the message not found; its text still replays`, {
        itemIds: [item.id],
        messageIds,
        details: { artifactIds: missing },
      }),
    );
  }
  if (notReplayable.length > 0) {
    const types = [...new Set(notReplayable.map((id) => (context.artifactsById.get(id) as StoredArtifact).type))];
    trace.push(
      traceEvent("artifacts", "dropped-non-replayable", `${plural(notReplayable.length, "artifact")} of a type never replayed (${types.join(", ")})`, {
        itemIds: [item.id],
        messageIds,
        details: { artifactIds: notReplayable, types },
      }),
    );
  }

  // 2. Normalise, then keep only calls and outputs that pair up within this message.
  const normalised = new Map<string, Replayable>();
  const callIds = new Set<string>();
  const outputIds = new Set<string>();
  for (const artifact of loaded) {
    const replayable = normalise(artifact);
    if (replayable === null) {
      malformed.push(artifact.id);
      continue;
    }
    normalised.set(artifact.id, replayable);
    if (replayable.kind === "call") callIds.add(replayable.callId);
    else if (replayable.kind === "output") outputIds.add(replayable.callId);
  }
  if (malformed.length > 0) {
    trace.push(
      traceWarning("artifacts", "dropped-malformed-artifact", `${plural(malformed.length, "artifact")} malformed (no call id, name or arguments)`, {
        itemIds: [item.id],
        messageIds,
        details: { artifactIds: malformed },
      }),
    );
  }
  const orphans: string[] = [];
  const callNames = new Map<string, string>();
  for (const replayable of normalised.values()) {
    if (replayable.kind === "call") {
      if (outputIds.has(replayable.callId)) callNames.set(replayable.callId, replayable.name);
      else orphans.push(replayable.artifact.id);
    } else if (replayable.kind === "output" && !callIds.has(replayable.callId)) {
      orphans.push(replayable.artifact.id);
    }
  }
  for (const id of orphans) normalised.delete(id);
  if (orphans.length > 0) {
    trace.push(
      traceEvent("artifacts", "dropped-orphan-tool-artifacts", `${plural(orphans.length, "tool artifact")} without a matching call or output in the message`, {
        itemIds: [item.id],
        messageIds,
        details: { artifactIds: orphans },
      }),
    );
  }

  // 3. Walk the parts: text pieces come from the item (label and media already applied), artifacts in between.
  const textParts: ItemPart[] = [];
  const mediaParts: ItemPart[] = [];
  for (const part of item.parts) (part.type === "text" ? textParts : mediaParts).push(part);
  let nextText = 0;
  let mainEmitted = false;
  let group: ContextItem | null = null;
  let groupKind: Replayable["kind"] | null = null;
  const emitMain = () => {
    // The message's own item: its media and first text piece (plus any text the media stage added).
    const parts = mediaParts.slice();
    if (nextText < textParts.length) parts.push(textParts[nextText++]);
    mainEmitted = true;
    if (parts.length > 0) out.push({ ...item, parts, tokens: 0 });
  };
  const skippedReasoning: string[] = [];

  const textItem = (piece: number): ContextItem => {
    const textItemValue: ContextItem = {
      id: `${item.id}:text:${piece}`,
      role: item.role,
      tag: item.tag,
      parts: [textParts[piece]],
      sourceMessageIds: item.sourceMessageIds,
      tokens: 0,
    };
    if (item.sender !== undefined) textItemValue.sender = item.sender;
    return textItemValue;
  };
  for (const entry of messageLayout(message)) {
    if (entry.kind === "text") {
      group = null;
      groupKind = null;
      if (!mainEmitted) emitMain();
      else if (nextText < textParts.length) out.push(textItem(nextText++));
      continue;
    }
    const replayable = normalised.get(entry.artifactId);
    if (replayable === undefined) continue;
    if (replayable.kind === "reasoning" && settings.reasoning.persist === "disabled") {
      skippedReasoning.push(replayable.artifact.id);
      continue;
    }
    if (!mainEmitted && mediaParts.length > 0) emitMain();
    const replayedPart = toPart(replayable, callNames, isOld, item, context);
    if (replayable.kind === "reasoning") context.replayedReasoningIds.push(replayable.artifact.id);
    if (group !== null && groupKind === replayable.kind) {
      group.parts.push(replayedPart);
      continue;
    }
    group = {
      id: `artifact:${replayable.artifact.id}`,
      role: ROLE_OF[replayable.kind],
      tag: TAG_OF[replayable.kind],
      parts: [replayedPart],
      sourceMessageIds: item.sourceMessageIds,
      tokens: 0,
    };
    if (item.sender !== undefined) group.sender = item.sender;
    groupKind = replayable.kind;
    out.push(group);
  }
  if (!mainEmitted) emitMain();
  // Text the stage before added beyond the message's own pieces stays with the message.
  while (nextText < textParts.length) out.push(textItem(nextText++));
  if (skippedReasoning.length > 0) {
    trace.push(
      traceEvent("artifacts", "skipped-reasoning", `${plural(skippedReasoning.length, "reasoning artifact")} not replayed (reasoning.persist = disabled)`, {
        itemIds: [item.id],
        messageIds,
        details: { artifactIds: skippedReasoning },
      }),
    );
  }
}

function toPart(replayable: Replayable, callNames: ReadonlyMap<string, string>, isOld: boolean, item: ContextItem, context: ReplayContext): ItemPart {
  switch (replayable.kind) {
    case "call":
      return { type: "tool-call", toolCallId: replayable.callId, toolName: replayable.name, input: replayable.input };
    case "reasoning": {
      const part: ItemPart = { type: "reasoning", text: replayable.text };
      if (replayable.providerMetadata) part.providerMetadata = replayable.providerMetadata;
      return part;
    }
    case "output": {
      const toolName = callNames.get(replayable.callId) ?? replayable.name ?? "unknown";
      const tools = context.settings.tools;
      if (isOld && tools.outputRetentionTurns > 0) {
        const text = toolOutputText(replayable.output);
        if (text.length >= tools.pruneMinChars) {
          const pruned = pruneToolOutput(text, { head: tools.pruneHead, tail: tools.pruneTail, retentionTurns: tools.outputRetentionTurns });
          context.trace.push(
            traceEvent(
              "artifacts",
              "pruned-tool-output",
              `pruned tool output (removed ${plural(pruned.removed, "char")}, older than ${plural(tools.outputRetentionTurns, "turn")})`,
              {
                itemIds: [`artifact:${replayable.artifact.id}`],
                messageIds: item.sourceMessageIds,
                counts: { removedChars: pruned.removed, originalChars: text.length, retentionTurns: tools.outputRetentionTurns },
                details: { artifactId: replayable.artifact.id, toolCallId: replayable.callId },
              },
            ),
          );
          return { type: "tool-result", toolCallId: replayable.callId, toolName, output: pruned.text };
        }
      }
      return { type: "tool-result", toolCallId: replayable.callId, toolName, output: replayable.output };
    }
  }
}

export function replayArtifacts(args: {
  items: readonly ContextItem[];
  messagesById: ReadonlyMap<string, StoredMessage>;
  artifactsById: ReadonlyMap<string, StoredArtifact>;
  settings: ResolvedSettings;
  /** The current input (a user turn) follows these items; it counts as the newest turn. Default true. */
  currentInputFollows?: boolean;
}): { items: ContextItem[]; trace: TraceEvent[]; replayedReasoningIds: string[] } {
  const { items, messagesById, settings } = args;
  const context: ReplayContext = { settings, artifactsById: args.artifactsById, trace: [], replayedReasoningIds: [] };
  const roles: ItemRole[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) roles[i] = items[i].role;
  const { turns, totalTurns } = computeTurnIndices(roles, args.currentInputFollows ?? true);
  const retention = settings.tools.outputRetentionTurns;
  const pruneBeforeTurn = retention > 0 && totalTurns > retention ? totalTurns - retention : 0;

  const out: ContextItem[] = [];
  const emptyItems: string[] = [];
  const skippedArtifactItems: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const message = item.sourceMessageIds.length === 1 && item.id === messageItemId(item.sourceMessageIds[0]) ? messagesById.get(item.sourceMessageIds[0]) : undefined;
    const withArtifacts = message !== undefined && message.parts.some((part) => part.type === "artifact");
    if (withArtifacts && item.role === "assistant" && message.authorType === "persona") {
      const before = out.length;
      expandMessage(item, message, turns[i] < pruneBeforeTurn, context, out);
      if (out.length === before) emptyItems.push(item.id);
      continue;
    }
    if (withArtifacts) skippedArtifactItems.push(item.id);
    if (item.parts.length === 0) {
      emptyItems.push(item.id);
      continue;
    }
    out.push(item);
  }

  const trace = context.trace;
  if (skippedArtifactItems.length > 0) {
    trace.push(
      traceEvent("artifacts", "skipped-artifacts", "artifacts of messages that are not the assistant's turn here are not replayed", {
        itemIds: skippedArtifactItems,
      }),
    );
  }
  if (emptyItems.length > 0) {
    trace.push(
      traceEvent("artifacts", "dropped-empty", `${plural(emptyItems.length, "message")} with nothing left to send`, {
        itemIds: emptyItems,
        counts: { items: emptyItems.length },
      }),
    );
  }
  if (settings.reasoning.persist === "next_reply" && context.replayedReasoningIds.length > 0) {
    trace.push(
      traceEvent("artifacts", "replayed-reasoning-once", `${plural(context.replayedReasoningIds.length, "reasoning artifact")} replayed for this reply only; delete after the reply (reasoning.persist = next_reply)`, {
        counts: { reasoning: context.replayedReasoningIds.length },
        details: { artifactIds: context.replayedReasoningIds },
      }),
    );
  }
  return { items: out, trace, replayedReasoningIds: context.replayedReasoningIds };
}
