// The in-loop fallback: when the first model's budget would still have to drop whole turns after
// trimming, or cannot fit the context at all, summarise then (unless the mode is manual) and build again once,
// rather than silently losing the oldest turns. The summary events go first in the turn's trace.

import "server-only";
import type { Database } from "@/db/client";
import type { Conversation, Model, Persona } from "@/db/schema";
import type { TurnInput } from "@/lib/chat/turn/load-turn-input";
import { stageClock } from "@/lib/chat/turn/stage-clock";
import { toModelDescriptor } from "@/lib/chat/turn/stored-rows";
import { runnableToolNames } from "@/lib/chat/turn/tools";
import { ContextBudgetError, type ResolvedContext, resolveForModel } from "@/lib/context/resolve-for-model";
import type { BaseContext, TraceEvent } from "@/lib/domain/types";
import { summariseConversation } from "./summarise";

export interface BuiltTurn {
  turnInput: TurnInput;
  base: BaseContext;
}

export interface CheckedTurn extends BuiltTurn {
  /** Phase B for the first model, already done by the check: the first attempt reuses it. */
  firstResolved?: ResolvedContext;
}

export async function summariseOnOverflow({
  db,
  conversation,
  persona,
  modelRows,
  summaryEvents,
  build,
  prebuilt,
}: {
  db: Database;
  conversation: Conversation;
  persona: Persona;
  /** The turn's models, first one first: the budget is checked against the first. */
  modelRows: Model[];
  /** Events of the summary made before the turn (maybeSummariseBeforeTurn). */
  summaryEvents: TraceEvent[];
  /** Loads the turn input and builds phase A. */
  build: () => Promise<BuiltTurn>;
  /** A build already made (when nothing was summarised since it was loaded). */
  prebuilt?: BuiltTurn;
}): Promise<CheckedTurn> {
  let built = prebuilt ?? (await build());
  const events = [...summaryEvents];
  const firstModel = modelRows[0];
  let firstResolved: ResolvedContext | undefined;
  if (firstModel && built.turnInput.settings.summary.mode !== "manual") {
    const check = checkBudget(built.base, firstModel, runnableToolNames(persona.toolNames));
    firstResolved = check.resolved;
    if (check.wouldDropTurns) {
      const outcome = await summariseConversation({ db, conversation, persona, trigger: "overflow" });
      events.push(...outcome.events);
      if (outcome.status === "summarised") {
        built = await build();
        firstResolved = undefined;
      }
    }
  }
  if (events.length === 0) return { ...built, firstResolved };
  // The trace gains the summary events, so the first attempt resolves afresh to carry them.
  return { turnInput: built.turnInput, base: { ...built.base, trace: [...events, ...built.base.trace] } };
}

function checkBudget(
  base: BaseContext,
  modelRow: Model,
  enabledToolNames: string[],
): { wouldDropTurns: boolean; resolved?: ResolvedContext } {
  try {
    const resolved = resolveForModel(base, toModelDescriptor(modelRow), {
      enabledToolNames,
      clock: stageClock,
    });
    const drops = resolved.trace.some(
      (event) => event.stage === "budget" && event.action === "dropped-oldest-turns",
    );
    return { wouldDropTurns: drops, resolved: drops ? undefined : resolved };
  } catch (error) {
    if (error instanceof ContextBudgetError) return { wouldDropTurns: true };
    throw error;
  }
}
