// The pipeline part of the benchmark: phases A + B over long stored conversations with the fetch limit lifted and a
// 128k-token model (so the budget has to cut most of the history), and the same build with default settings over
// the bounded window the loader hands it (flat, whatever the history length).

import { buildContext } from "@/lib/context/build-context";
import { attemptBudgetsFor } from "@/lib/context/history-reach";
import { resolveForModel } from "@/lib/context/resolve-for-model";
import { MODEL_CATALOG } from "@/lib/domain/model-catalog";
import { defaultSettings, type ResolvedSettings, settingsSchema } from "@/lib/domain/settings";
import type { BuildInput, ModelDescriptor } from "@/lib/domain/types";
import { buildInputFor, type GeneratedConversation, liftedSettings } from "./conversation-generator";
import { type Sample, timeSync } from "./stats";

/** GPT-4o: a 128k-token window, vision, o200k tokenizer. */
export const BENCH_MODEL: ModelDescriptor = (() => {
  const row = MODEL_CATALOG.find((model) => model.id === "openai:gpt-4o");
  if (!row) throw new Error("openai:gpt-4o is missing from the model catalog");
  const { label: _label, ...descriptor } = row;
  return descriptor;
})();

export const ENABLED_TOOLS = ["web_lookup", "hotel_search", "fare_finder", "current_time", "analyze_image"];

/** The schema's largest fetch limit; beyond it the benchmark builds the settings object directly. */
export const SCHEMA_MAX_FETCH_LIMIT = 10_000;

export function settingsForSize(size: number): { settings: ResolvedSettings; bypassedSchema: boolean } {
  const settings = liftedSettings(size);
  if (size <= SCHEMA_MAX_FETCH_LIMIT)
    return { settings: settingsSchema.parse(settings), bypassedSchema: false };
  return { settings, bypassedSchema: true };
}

/** As the turn runner builds: with the usable budget of the model the turn calls. */
export function withAttemptBudgets(input: BuildInput, models: ModelDescriptor[] = [BENCH_MODEL]): BuildInput {
  return { ...input, attemptBudgets: attemptBudgetsFor(models, input.settings) };
}

/** The whole of phase A and phase B: what the timed region runs. */
export function buildAndResolve(input: BuildInput, model: ModelDescriptor = BENCH_MODEL) {
  const base = buildContext(input);
  return resolveForModel(base, model, { enabledToolNames: ENABLED_TOOLS });
}

export interface PipelineFigure {
  messages: number;
  total: Sample;
  phaseA: Sample;
  phaseB: Sample;
  itemsBuilt: number;
  itemsSent: number;
  tokensSent: number;
  usableTokens: number;
  droppedTurns: number;
  bypassedSchema: boolean;
}

export function measurePipeline(
  conversation: GeneratedConversation,
  { runs, warmup }: { runs: number; warmup: number },
): PipelineFigure {
  const size = conversation.messages.length;
  const { settings, bypassedSchema } = settingsForSize(size);
  const input = withAttemptBudgets(buildInputFor(conversation, settings));

  const total = timeSync(() => buildAndResolve(input), { runs, warmup });
  // The phases apart, for the breakdown (not part of the headline figure).
  const phaseA = timeSync(() => buildContext(input), { runs, warmup: 1 });
  const base = buildContext(input);
  const phaseB = timeSync(() => resolveForModel(base, BENCH_MODEL, { enabledToolNames: ENABLED_TOOLS }), {
    runs,
    warmup: 1,
  });

  const resolved = resolveForModel(base, BENCH_MODEL, { enabledToolNames: ENABLED_TOOLS });
  const drop = resolved.trace.find(
    (event) => event.stage === "budget" && event.action === "dropped-oldest-turns",
  );
  return {
    messages: size,
    total,
    phaseA,
    phaseB,
    itemsBuilt: base.items.length,
    itemsSent: resolved.items.length,
    tokensSent: resolved.budget.totalTokens,
    usableTokens: resolved.budget.usableTokens,
    droppedTurns: drop?.counts?.turns ?? 0,
    bypassedSchema,
  };
}

export interface DefaultSettingsFigure {
  storedMessages: number;
  loadedMessages: number;
  total: Sample;
}

/** Default settings (fetch limit 80): the loader hands the pipeline the newest 80 messages, whatever the history. */
export function measureDefaultSettings(
  conversation: GeneratedConversation,
  { runs, warmup }: { runs: number; warmup: number },
): DefaultSettingsFigure {
  const settings = defaultSettings();
  const input = withAttemptBudgets(
    buildInputFor(conversation, settings, { newest: settings.history.messageFetchLimit }),
  );
  const total = timeSync(() => buildAndResolve(input), { runs, warmup });
  return { storedMessages: conversation.messages.length, loadedMessages: input.messages.length, total };
}
