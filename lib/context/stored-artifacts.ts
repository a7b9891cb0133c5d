// Stored artifacts read as what they replay as: a tool call, a tool output or reasoning. Shared by the artifact
// replay stage and the write-time token cache (which counts the part an artifact replays as); depends on no stage.

import type { ItemPart, StoredArtifact } from "./types";

/** Only these artifact types are sent back to a model; everything else (provider-run tools) is not replayable. */
export const REPLAYABLE_ARTIFACT_TYPES: ReadonlySet<string> = new Set([
  "function_call",
  "function_call_output",
  "reasoning",
]);

export type Replayable =
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

/**
 * A stored artifact as something replayable (as the Open WebUI pipe normalises persisted items); null when it is
 * malformed.
 */
export function readReplayable(artifact: StoredArtifact): Replayable | null {
  const payload = artifact.payload;
  switch (artifact.type) {
    case "function_call":
      if (
        !nonEmptyString(payload.callId) ||
        !nonEmptyString(payload.name) ||
        payload.arguments === undefined ||
        payload.arguments === null
      )
        return null;
      return {
        kind: "call",
        artifact,
        callId: payload.callId,
        name: payload.name,
        input: parseArguments(payload.arguments),
      };
    case "function_call_output":
      if (!nonEmptyString(payload.callId)) return null;
      return {
        kind: "output",
        artifact,
        callId: payload.callId,
        name: nonEmptyString(payload.name) ? payload.name : null,
        output: payload.output ?? "",
      };
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

/**
 * The part a stored artifact replays as, unpruned; null for a type never replayed or a malformed artifact. What
 * `artifactTokenCounts` counts at write time.
 */
export function replayedArtifactPart(artifact: Pick<StoredArtifact, "type" | "payload">): ItemPart | null {
  if (!REPLAYABLE_ARTIFACT_TYPES.has(artifact.type)) return null;
  const replayable = readReplayable(artifact as StoredArtifact);
  if (replayable === null) return null;
  switch (replayable.kind) {
    case "call":
      return {
        type: "tool-call",
        toolCallId: replayable.callId,
        toolName: replayable.name,
        input: replayable.input,
      };
    case "output":
      return {
        type: "tool-result",
        toolCallId: replayable.callId,
        toolName: replayable.name ?? "unknown",
        output: replayable.output,
      };
    case "reasoning":
      return { type: "reasoning", text: replayable.text };
  }
}
