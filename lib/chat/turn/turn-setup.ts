// The one set-up before any model call about a conversation (a reply, a preview, a write-as-me draft, a title, a
// summary): the conversation as its reader may see it, its persona, the models that may answer (one refusal, one
// message, whichever call asks), then the load and phase A. Phase B stays per attempt (run-attempts.ts,
// auxiliary-call.ts). See docs/architecture.md, "A turn, step by step".

import "server-only";
import type { Database } from "@/db/client";
import { getModel, listModels } from "@/db/model-queries";
import type { Model, Persona } from "@/db/schema";
import { readTurnSnapshot, type TurnSnapshot } from "@/db/turn-snapshot-queries";
import { buildContext } from "@/lib/context/build-context";
import { attemptBudgetsFor } from "@/lib/context/history-reach";
import { ContextBudgetError, type ResolvedContext, resolveForModel } from "@/lib/context/resolve-for-model";
import { AppError, notFound } from "@/lib/domain/errors";
import type { BaseContext, ModelDescriptor } from "@/lib/domain/types";
import { isProviderConfigured } from "@/lib/providers/language-model";
import { loadTurnInput, type TurnInput } from "./load-turn-input";
import { stageClock } from "./stage-clock";
import { toModelDescriptor } from "./stored-rows";

/** What a model call opens with: the conversation's snapshot (db/turn-snapshot-queries.ts) and who answers. */
export type OpenedConversation = TurnSnapshot & { persona: Persona };

/**
 * The conversation (404 to anyone who may not read it), the persona that answers in it, and the rest of what the
 * call reads before it builds: one statement.
 */
export async function openConversation({
  db,
  conversationId,
  userId,
  persona,
  modelId,
  clientMessageId,
  snapshot,
}: {
  db: Database;
  conversationId: string;
  userId: string;
  /** Answer as this persona instead of the conversation's (the admin persona editor's unsaved draft). */
  persona?: Persona;
  /** A model the call names besides the persona's (a regenerate's choice): read with the rest. */
  modelId?: string | null;
  /** The new message's client id: whether it is already stored is read with the rest. */
  clientMessageId?: string | null;
  /**
   * The snapshot of this conversation, already read (with the lookup that found it, or beside the session check):
   * used instead of reading it again when it was read for this user, with this model and client message id, and
   * the call answers as the conversation's persona.
   */
  snapshot?: TurnSnapshot;
}): Promise<OpenedConversation> {
  const read =
    snapshot !== undefined &&
    !persona &&
    snapshot.conversation.id === conversationId &&
    snapshot.readFor.userId === userId &&
    snapshot.readFor.modelId === (modelId ?? null) &&
    snapshot.readFor.clientMessageId === (clientMessageId ?? null)
      ? snapshot
      : await readTurnSnapshot({
          db,
          conversationId,
          userId,
          personaId: persona?.id,
          modelId,
          clientMessageId,
        });
  const answering = persona ?? read.persona;
  if (!answering) throw notFound("Persona");
  return { ...read, persona: answering };
}

/** The one sentence for a model that cannot be called: `model` is "Model x", "the summary model x", … */
export function unavailableModelMessage(model: string): string {
  return `${model} is unknown, disabled or its provider is not configured`;
}

/** The model row when it may be called now (it exists, is enabled and its provider is configured), else null. */
export async function callableModel(db: Database, modelId: string): Promise<Model | null> {
  const row = await getModel({ db, modelId });
  return row && isCallable(row) ? row : null;
}

/** The models an owner may choose for a conversation or one reply: those that may be called now. */
export async function choosableModels(db: Database): Promise<{ id: string; label: string }[]> {
  const rows = await listModels({ db });
  return rows.filter(isCallable).map((row) => ({ id: row.id, label: row.label }));
}

/** A model named by the request (a preview's): refused with 422 when it cannot be called. */
export async function requireCallableModel(db: Database, modelId: string): Promise<Model> {
  const row = await callableModel(db, modelId);
  return requireCallableRow(new Map(row ? [[modelId, row]] : []), modelId);
}

/**
 * The persona's own model row (null when it does not exist), and the models that may answer for it: the chosen
 * model first when there is one (the conversation's, or a regenerate's), then the persona's model and its
 * fallbacks, keeping those that may be called. None at all is refused with 422. `modelsById` holds the rows read
 * with the conversation (openConversation).
 */
export function personaModels(
  modelsById: ReadonlyMap<string, Model>,
  persona: Persona,
  chosenModelId?: string | null,
): { personaModel: Model | null; usable: Model[] } {
  const personaModelIds = [persona.modelId, ...persona.fallbackModelIds];
  const modelIds = [...new Set([...(chosenModelId ? [chosenModelId] : []), ...personaModelIds])];
  const rows = modelIds.map((modelId) => modelsById.get(modelId) ?? null);
  const usable = rows.filter((row): row is Model => row !== null && isCallable(row));
  if (usable.length === 0) {
    const models =
      modelIds.length === 1 ? `its model ${modelIds[0]}` : `every one of its models (${modelIds.join(", ")})`;
    throw new AppError(
      "model_unavailable",
      `Persona ${persona.name} has no usable model: ${unavailableModelMessage(models)}.`,
    );
  }
  return { personaModel: rows[modelIds.indexOf(persona.modelId)] ?? null, usable };
}

/** A model row that may be called now: enabled, its provider configured. */
export function isCallable(row: Model): boolean {
  return row.enabled && isProviderConfigured(row.provider);
}

/** A model named by the request, from rows already read: refused with 422 when it cannot be called. */
export function requireCallableRow(modelsById: ReadonlyMap<string, Model>, modelId: string): Model {
  const row = modelsById.get(modelId);
  if (!row || !isCallable(row))
    throw new AppError("model_unavailable", `${unavailableModelMessage(`Model ${modelId}`)}.`);
  return row;
}

/** Phase A for the models that may answer: history none of them could take is not built (same payload). */
export function buildPhaseA(
  turnInput: TurnInput,
  models: readonly Model[],
  options: { impersonateUserId?: string } = {},
): BaseContext {
  const attemptBudgets = attemptBudgetsFor(models.map(toModelDescriptor), turnInput.buildInput.settings);
  return buildContext({ ...turnInput.buildInput, ...options, attemptBudgets }, { clock: stageClock });
}

/** Load the turn's input and build phase A: the whole set-up of a call that is not a stored turn. */
export async function loadAndBuild({
  models,
  impersonateUserId,
  ...load
}: Parameters<typeof loadTurnInput>[0] & {
  models: readonly Model[];
  /** Generate as this user (write-as-me): their messages become the model's own. */
  impersonateUserId?: string;
}): Promise<{ turnInput: TurnInput; base: BaseContext }> {
  const turnInput = await loadTurnInput(load);
  return { turnInput, base: buildPhaseA(turnInput, models, { impersonateUserId }) };
}

/** Phase B for one model, with a context that does not fit refused as 422 (a call the user asked for). */
export function resolveOrRefuse(
  base: BaseContext,
  model: ModelDescriptor,
  enabledToolNames: string[],
): ResolvedContext {
  try {
    return resolveForModel(base, model, { enabledToolNames, clock: stageClock });
  } catch (error) {
    if (error instanceof ContextBudgetError) throw new AppError("context_too_large", error.message);
    throw error;
  }
}
