// The summariser call: the planned input goes to the summary model with `generateText` (no tools, no retries: a
// failed summary changes nothing and the next turn tries again), or, for the offline model, to the deterministic
// extractive summariser, so compaction works without a provider key.

import { generateText } from "ai";
import type { ModelDescriptor, StoredMessage, StoredSummary } from "@/lib/context/types";
import { languageModelFor } from "@/lib/providers/language-model";
import { offlineSummary } from "@/lib/providers/offline-summary";

/** A summary blocks the turn that triggered it: give up rather than hold the reply for ever. */
const SUMMARY_TIMEOUT_MS = Number(process.env.GLASSBOX_SUMMARY_TIMEOUT_MS ?? 60_000);

export async function callSummariser({
  model,
  input,
  messages,
  previousSummary,
}: {
  model: ModelDescriptor;
  /** From buildSummariserInput: the summariser's instructions and prompt. */
  input: { system: string; prompt: string };
  /** The covered messages, for the offline summariser (it reads them, not the prompt). */
  messages: readonly StoredMessage[];
  previousSummary: StoredSummary | null;
}): Promise<string> {
  if (model.provider === "offline") return offlineSummary({ messages, previousSummary });
  const result = await generateText({
    model: languageModelFor(model),
    instructions: input.system,
    prompt: input.prompt,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(SUMMARY_TIMEOUT_MS),
  });
  return result.text;
}
