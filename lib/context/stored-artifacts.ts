// Stored artifacts read as what they replay as: a tool call, a tool output or reasoning. Shared by the artifact
// replay stage and the write-time token cache (which counts the part an artifact replays as); depends on no stage.

import type { ItemPart, ProviderMetadata, StoredArtifact, ToolErrorOutputType } from "@/lib/domain/types";

/** Only these artifact types are sent back to a model; everything else (provider-run tools) is not replayable. */
export const REPLAYABLE_ARTIFACT_TYPES: ReadonlySet<string> = new Set([
  "function_call",
  "function_call_output",
  "reasoning",
]);

export type Replayable = (
  | { kind: "call"; artifact: StoredArtifact; callId: string; name: string; input: unknown }
  | {
      kind: "output";
      artifact: StoredArtifact;
      callId: string;
      name: string | null;
      output: unknown;
      outputType?: ToolErrorOutputType;
    }
  | { kind: "reasoning"; artifact: StoredArtifact; text: string }
) & {
  providerMetadata?: ProviderMetadata;
  /** The provider ran the tool (a call or its result): it stays inside the assistant message. */
  providerExecuted?: true;
  /** Which provider ran it, when stored. */
  executedBy?: string;
  /** The reply's tool-loop step it came from, when stored (older rows have none). */
  step?: number;
};

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

/** The replayable with the artifact's provider metadata, who ran it and its step, when stored. */
function withMetadata(replayable: Replayable, payload: Record<string, unknown>): Replayable {
  const providerMetadata = readProviderMetadata(payload.providerMetadata);
  if (providerMetadata !== undefined) replayable.providerMetadata = providerMetadata;
  if (payload.providerExecuted === true) replayable.providerExecuted = true;
  if (nonEmptyString(payload.executedBy)) replayable.executedBy = payload.executedBy;
  if (typeof payload.step === "number" && Number.isInteger(payload.step)) replayable.step = payload.step;
  return replayable;
}

/** A JSON output's exact text when stored (jsonb does not keep key order), else the stored value. */
function storedOutput(payload: Record<string, unknown>): unknown {
  if (typeof payload.outputJson === "string") {
    try {
      return JSON.parse(payload.outputJson);
    } catch {
      // A damaged copy: the value itself still replays.
    }
  }
  return payload.output ?? "";
}

function errorOutputType(value: unknown): ToolErrorOutputType | undefined {
  return value === "error-text" || value === "error-json" ? value : undefined;
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
 * A stored artifact as something replayable: each persisted item type is normalised to one shape (a call, an
 * output, …) before replay; null when it is malformed.
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
    case "function_call_output": {
      if (!nonEmptyString(payload.callId)) return null;
      const output: Replayable = {
        kind: "output",
        artifact,
        callId: payload.callId,
        name: nonEmptyString(payload.name) ? payload.name : null,
        output: storedOutput(payload),
      };
      const outputType = errorOutputType(payload.outputType);
      if (outputType !== undefined) output.outputType = outputType;
      return withMetadata(output, payload);
    }
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
      if (replayable.outputType !== undefined) part.outputType = replayable.outputType;
      break;
    case "reasoning":
      part = { type: "reasoning", text: replayable.text };
      break;
  }
  if (replayable.providerMetadata !== undefined) part.providerMetadata = replayable.providerMetadata;
  if (replayable.providerExecuted === true && part.type !== "reasoning") {
    part.providerExecuted = true;
    if (replayable.executedBy !== undefined) part.executedBy = replayable.executedBy;
  }
  return part;
}
