// Phase A of the context pipeline: a stored conversation, loaded by the caller, becomes capability-neutral context
// items plus a trace of what every stage did, by the stages of PHASE_A in order. Pure and deterministic: no clock
// (unless the caller passes one to time the stages), no randomness, no global state, inputs never mutated (only
// new arrays and shallow item copies are made). Item ids and token counts: docs/pipeline.md#item-ids and
// docs/pipeline.md#token-counts.

import type {
  BaseContext,
  BuildInput,
  StoredArtifact,
  StoredAttachment,
  StoredMessage,
  TokenizerName,
} from "@/lib/domain/types";
import { artifactsStage } from "./artifact-replay";
import { collapseStage } from "./collapse-runs";
import { notesStage } from "./context-notes";
import { currentInputStage } from "./current-input";
import { reachStage } from "./history-reach";
import { windowStage } from "./history-window";
import { elementAt } from "./indexing";
import { loadStage } from "./loaded-history";
import { mediaBudgetStage } from "./media-budget";
import { blocksStage } from "./persona-user-blocks";
import type { ArtifactLookup, PhaseAContext } from "./phases";
import { rolesStage } from "./role-mapping";
import { type Clock, StageList } from "./stage";
import { summaryStage } from "./summary-placement";
import { systemPromptStage } from "./system-prompt";
import { unansweredStage } from "./unanswered-turns";

/** Phase A's stages, in the order they run. */
export const PHASE_A = StageList.startingWith(loadStage)
  .followedBy(reachStage)
  .followedBy(unansweredStage)
  .followedBy(collapseStage)
  .followedBy(blocksStage)
  .followedBy(rolesStage)
  .followedBy(mediaBudgetStage)
  .followedBy(artifactsStage)
  .followedBy(windowStage)
  .followedBy(notesStage)
  .followedBy(systemPromptStage)
  .followedBy(summaryStage)
  .followedBy(currentInputStage);

export interface BuildOptions {
  /** Which cached per-message count fills `item.tokens`; null fills none. Default "o200k_base". */
  tokenizer?: TokenizerName | null;
  /** Times each stage (`stageTimings`); without it every time is 0. */
  clock?: Clock;
}

export function buildContext(input: BuildInput, options: BuildOptions = {}): BaseContext {
  const { settings } = input;
  const tokenizer = options.tokenizer === undefined ? "o200k_base" : options.tokenizer;
  // Lookups by id, built once. Messages need none: each item carries its source message along (`sources`), and
  // the one lookup left (the note's trace reason) scans from the newest message.
  const attachmentsById = new Map<string, StoredAttachment>();
  for (const attachment of input.attachments) attachmentsById.set(attachment.id, attachment);
  const context: PhaseAContext = {
    input,
    settings,
    tokenizer,
    attachmentsById,
    artifactsById: sequentialArtifacts(input.artifacts),
    messagesById: { get: (messageId: string) => findMessage(input, messageId) },
  };
  const run = PHASE_A.run(input.messages, context, options.clock ?? null);
  return {
    items: run.value,
    trace: run.trace,
    settings,
    tokenizer,
    stageTimings: run.stageTimings,
    conversationId: input.conversationId,
  };
}

/** How far ahead of its cursor a sequential lookup looks before it falls back to a map. */
const SEQUENTIAL_LOOKAHEAD = 32;

/**
 * Artifacts by id without indexing them all: the loader gives them in the order they happened (sorted by their
 * ULIDs) and the artifacts stage asks for them in that order, so a cursor that looks a little ahead finds each
 * one; a miss (the first ask after history was cut before the build, say) is looked up by binary search over the
 * sorted ids. Anything else (another order, a missing id) falls back to a map, built on first need. Ids are
 * unique, so all three give the same artifact.
 */
function sequentialArtifacts(artifacts: readonly StoredArtifact[]): ArtifactLookup {
  let cursor = 0;
  let byId: Map<string, StoredArtifact> | null = null;
  return {
    get(artifactId) {
      const end = Math.min(artifacts.length, cursor + SEQUENTIAL_LOOKAHEAD);
      for (let index = cursor; index < end; index++) {
        const artifact = artifacts[index];
        if (artifact?.id === artifactId) {
          cursor = index + 1;
          return artifact;
        }
      }
      const found = binarySearchById(artifacts, artifactId);
      if (found !== -1) {
        cursor = found + 1;
        return elementAt(artifacts, found);
      }
      if (byId === null) {
        byId = new Map();
        for (const artifact of artifacts) byId.set(artifact.id, artifact);
      }
      return byId.get(artifactId);
    },
  };
}

/** The index of `id` in a list sorted by id, or -1 (also when the list is not sorted where it looks). */
function binarySearchById(list: readonly { id: string }[], id: string): number {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const candidate = list[middle]?.id;
    if (candidate === undefined) return -1;
    if (candidate === id) return middle;
    if (candidate < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** A message by id as a map of the loaded messages and the current input would give it (the input wins). */
function findMessage(input: BuildInput, messageId: string): StoredMessage | undefined {
  if (input.currentInput.id === messageId) return input.currentInput;
  return input.messages.findLast((message) => message.id === messageId);
}
