// Reading a message's stored artifacts for replay (docs/pipeline.md#artifact-replay): each artifact part's
// replayable (missing, never-replayed and malformed ones reported once per message), calls and outputs kept only
// in pairs, and each replayed part with its cached count, old long tool outputs pruned to head + note + tail.

import type { ResolvedSettings } from "@/lib/domain/settings";
import type { ContextItem, ItemPart, StoredMessage, TokenizerName, TraceEvent } from "@/lib/domain/types";
import type { ArtifactLookup } from "./phases";
import { REPLAYABLE_ARTIFACT_TYPES, type Replayable, readReplayable, replayedPart } from "./stored-artifacts";
import { countTextTokens } from "./tokens";
import { plural, traceEvent, traceWarning } from "./trace";

/** Tool output as text: strings as they are, anything else as JSON. */
export function toolOutputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined || output === null) return "";
  return JSON.stringify(output) ?? "";
}

/**
 * Head + note + tail, so a pruned output still shows how it began and ended: the first `head` characters (trailing space trimmed),
 * "...\n[tool output pruned: removed N chars, older than K turns]\n...", then the last `tail` characters
 * (leading space trimmed), joined by newlines. N is what was cut from the middle.
 */
export function pruneToolOutput(
  text: string,
  options: { head: number; tail: number; retentionTurns: number },
): { text: string; removed: number; note: string; keptChars: number } {
  const head = text.slice(0, options.head).trimEnd();
  const tail =
    options.tail > 0 ? text.slice(Math.max(options.head, text.length - options.tail)).trimStart() : "";
  const removed = Math.max(0, text.length - options.head - options.tail);
  const note = `...\n[tool output pruned: removed ${plural(removed, "char")}, older than ${plural(options.retentionTurns, "turn")}]\n...`;
  return { text: `${head}\n${note}\n${tail}`, removed, note, keptChars: head.length + tail.length };
}

/** What one replay reads and writes as it goes: the settings, the artifacts by id, the trace it adds to. */
export interface ReplayContext {
  settings: ResolvedSettings;
  /** Which cached counts fill `item.tokens` (null: none). */
  tokenizer: TokenizerName | null;
  /** Tokens of a pruned output's note by its length (see prunedOutputTokens). */
  noteTokens: Map<number, number>;
  artifactsById: ArtifactLookup;
  trace: TraceEvent[];
  replayedReasoningIds: string[];
}

/** Push onto a list that is only allocated when first needed. */
export function appendTo<T>(list: T[] | null, value: T): T[] {
  if (list === null) return [value];
  list.push(value);
  return list;
}

/** Report a per-message problem (missing, not replayable, malformed, orphan) with the artifacts it concerns. */
export function reportArtifacts(
  context: ReplayContext,
  item: ContextItem,
  messageId: string,
  action: string,
  reason: string,
  artifactIds: string[],
  warning: boolean,
  extra?: Record<string, unknown>,
): void {
  const fields = { itemIds: [item.id], messageIds: [messageId], details: { artifactIds, ...extra } };
  context.trace.push(
    warning
      ? traceWarning("artifacts", action, reason, fields)
      : traceEvent("artifacts", action, reason, fields),
  );
}

/**
 * The replayable behind each artifact part, in part order (null when it is missing, never replayed or malformed;
 * each kind of problem is reported once for the message), so the layout walk takes them in turn instead of
 * looking them up again.
 */
export function readArtifactParts(
  item: ContextItem,
  message: StoredMessage,
  context: ReplayContext,
): (Replayable | null)[] {
  let missing: string[] | null = null;
  let notReplayable: string[] | null = null;
  let notReplayableTypes: Set<string> | null = null;
  let malformed: string[] | null = null;
  // Sized up front: this runs for every assistant message with artifacts.
  let artifactParts = 0;
  for (const part of message.parts) if (part.type === "artifact") artifactParts++;
  const byPart: (Replayable | null)[] = new Array(artifactParts);
  let partSlot = 0;
  for (const part of message.parts) {
    if (part.type !== "artifact") continue;
    const artifact = context.artifactsById.get(part.artifactId);
    let replayable: Replayable | null = null;
    if (artifact === undefined) missing = appendTo(missing, part.artifactId);
    else if (!REPLAYABLE_ARTIFACT_TYPES.has(artifact.type)) {
      notReplayable = appendTo(notReplayable, artifact.id);
      notReplayableTypes ??= new Set();
      notReplayableTypes.add(artifact.type);
    } else {
      replayable = readReplayable(artifact);
      if (replayable === null) malformed = appendTo(malformed, artifact.id);
    }
    byPart[partSlot++] = replayable;
  }
  if (missing !== null) {
    reportArtifacts(
      context,
      item,
      message.id,
      "missing-artifact",
      `${plural(missing.length, "artifact")} of the message not found; its text still replays`,
      missing,
      true,
    );
  }
  if (notReplayable !== null) {
    const types = [...(notReplayableTypes as Set<string>)];
    reportArtifacts(
      context,
      item,
      message.id,
      "dropped-non-replayable",
      `${plural(notReplayable.length, "artifact")} of a type never replayed (${types.join(", ")})`,
      notReplayable,
      false,
      { types },
    );
  }
  if (malformed !== null) {
    reportArtifacts(
      context,
      item,
      message.id,
      "dropped-malformed-artifact",
      `${plural(malformed.length, "artifact")} malformed (no call id, name or arguments)`,
      malformed,
      true,
    );
  }
  return byPart;
}

/**
 * Keep only calls and outputs that pair up within this message (the others become null in `byPart`, reported
 * once). Returns each kept call's tool name by call id, which names an output that did not record one.
 */
export function dropUnpairedToolArtifacts(
  byPart: (Replayable | null)[],
  item: ContextItem,
  message: StoredMessage,
  context: ReplayContext,
): Map<string, string> {
  const callNames = new Map<string, string>();
  let outputIds: Set<string> | null = null;
  for (const replayable of byPart) {
    if (replayable === null) continue;
    if (replayable.kind === "call") callNames.set(replayable.callId, replayable.name);
    else if (replayable.kind === "output") {
      outputIds ??= new Set();
      outputIds.add(replayable.callId);
    }
  }
  let orphanIds: string[] | null = null;
  for (let index = 0; index < byPart.length; index++) {
    const replayable = byPart[index];
    if (replayable === null || replayable === undefined) continue;
    const paired =
      replayable.kind === "reasoning" ||
      (replayable.kind === "call"
        ? outputIds?.has(replayable.callId) === true
        : callNames.has(replayable.callId));
    if (paired) continue;
    orphanIds = appendTo(orphanIds, replayable.artifact.id);
    byPart[index] = null;
  }
  if (orphanIds !== null) {
    reportArtifacts(
      context,
      item,
      message.id,
      "dropped-orphan-tool-artifacts",
      `${plural(orphanIds.length, "tool artifact")} without a matching call or output in the message`,
      orphanIds,
      false,
    );
  }
  return callNames;
}

/** The replayed part and its cached count (null: not cached for the build's tokenizer, counted later). */
export function toPart(
  replayable: Replayable,
  callNames: ReadonlyMap<string, string>,
  isOld: boolean,
  item: ContextItem,
  context: ReplayContext,
): { part: ItemPart; tokens: number | null } {
  const cached =
    context.tokenizer === null ? undefined : replayable.artifact.tokenCounts?.[context.tokenizer];
  const tokens = cached === undefined ? null : cached;
  switch (replayable.kind) {
    case "call":
    case "reasoning":
      return { part: replayedPart(replayable, ""), tokens };
    case "output": {
      const toolName = callNames.get(replayable.callId) ?? replayable.name ?? "unknown";
      const tools = context.settings.tools;
      // A provider-run tool's result goes back in the provider's own schema, which a pruned text would break.
      if (isOld && tools.outputRetentionTurns > 0 && replayable.providerExecuted !== true) {
        const text = toolOutputText(replayable.output);
        if (text.length >= tools.pruneMinChars) {
          const pruned = pruneToolOutput(text, {
            head: tools.pruneHead,
            tail: tools.pruneTail,
            retentionTurns: tools.outputRetentionTurns,
          });
          context.trace.push(
            traceEvent(
              "artifacts",
              "pruned-tool-output",
              `pruned tool output (removed ${plural(pruned.removed, "char")}, older than ${plural(tools.outputRetentionTurns, "turn")})`,
              {
                itemIds: [`artifact:${replayable.artifact.id}`],
                messageIds: item.sourceMessageIds,
                counts: {
                  removedChars: pruned.removed,
                  originalChars: text.length,
                  retentionTurns: tools.outputRetentionTurns,
                },
                details: { artifactId: replayable.artifact.id, toolCallId: replayable.callId },
              },
            ),
          );
          return {
            part: replayedPart(replayable, toolName, pruned.text),
            tokens: tokens === null ? null : prunedOutputTokens(tokens, text.length, pruned, context),
          };
        }
      }
      return { part: replayedPart(replayable, toolName), tokens };
    }
  }
}

/**
 * A pruned output's count without tokenising it: the head and tail scaled from the whole output's cached count by
 * the characters they keep, plus the note's own count. Notes differ only in the number of characters removed, so
 * notes of one length have the same digit groups and the same count: each length is counted once per build.
 */
export function prunedOutputTokens(
  cached: number,
  originalLength: number,
  pruned: { note: string; keptChars: number },
  context: ReplayContext,
): number {
  const tokenizer = context.tokenizer as TokenizerName;
  let noteTokens = context.noteTokens.get(pruned.note.length);
  if (noteTokens === undefined) {
    noteTokens = countTextTokens(`\n${pruned.note}\n`, tokenizer);
    context.noteTokens.set(pruned.note.length, noteTokens);
  }
  return Math.ceil((cached * pruned.keptChars) / Math.max(1, originalLength)) + noteTokens;
}
