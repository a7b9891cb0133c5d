// Stored artifacts read as what they replay as: a tool call, a tool output or reasoning. Shared by the artifact
// replay stage and the write-time token cache (which counts the part an artifact replays as); depends on no stage.

import type { ItemPart, ProviderMetadata, StoredArtifact } from "./types";

/** Only these artifact types are sent back to a model; everything else (provider-run tools) is not replayable. */
export const REPLAYABLE_ARTIFACT_TYPES: ReadonlySet<string> = new Set([
  "function_call",
  "function_call_output",
  "reasoning",
]);

export type Replayable = (
  | { kind: "call"; artifact: StoredArtifact; callId: string; name: string; input: unknown }
  | { kind: "output"; artifact: StoredArtifact; callId: string; name: string | null; output: unknown }
  | { kind: "reasoning"; artifact: StoredArtifact; text: string }
) & { providerMetadata?: ProviderMetadata };

/** What the provider attached, when the stored value has the shape of provider metadata (provider key → object). */
export function readProviderMetadata(value: unknown): ProviderMetadata | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length === 0) return undefined;
  for (const [, fields] of entries) {
    if (fields === null || typeof fields !== "object" || Array.isArray(fields)) return undefined;
  }
  return value as ProviderMetadata;
}

/** The replayable with the artifact's provider metadata, when it has any. */
function withMetadata(replayable: Replayable, payload: Record<string, unknown>): Replayable {
  const providerMetadata = readProviderMetadata(payload.providerMetadata);
  if (providerMetadata !== undefined) replayable.providerMetadata = providerMetadata;
  return replayable;
}

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
      return withMetadata(
        {
          kind: "call",
          artifact,
          callId: payload.callId,
          name: payload.name,
          input: parseArguments(payload.arguments),
        },
        payload,
      );
    case "function_call_output":
      if (!nonEmptyString(payload.callId)) return null;
      return withMetadata(
        {
          kind: "output",
          artifact,
          callId: payload.callId,
          name: nonEmptyString(payload.name) ? payload.name : null,
          output: payload.output ?? "",
        },
        payload,
      );
    case "reasoning":
      if (typeof payload.text !== "string") return null;
      return withMetadata({ kind: "reasoning", artifact, text: payload.text }, payload);
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
  return replayedPart(replayable, replayable.kind === "output" ? (replayable.name ?? "unknown") : "");
}

/**
 * The part a replayable is sent as, with its provider metadata (`toolName` names an output: the call's name, which
 * its own record may lack). The one place replayed parts are built, so what is counted is what is sent.
 */
export function replayedPart(replayable: Replayable, toolName: string, output?: unknown): ItemPart {
  let part: ItemPart;
  switch (replayable.kind) {
    case "call":
      part = {
        type: "tool-call",
        toolCallId: replayable.callId,
        toolName: replayable.name,
        input: replayable.input,
      };
      break;
    case "output":
      part = {
        type: "tool-result",
        toolCallId: replayable.callId,
        toolName,
        output: output === undefined ? replayable.output : output,
      };
      break;
    case "reasoning":
      part = { type: "reasoning", text: replayable.text };
      break;
  }
  if (replayable.providerMetadata !== undefined) part.providerMetadata = replayable.providerMetadata;
  return part;
}
