// What one turn knows, gathered as it goes and passed whole to each step: who asks, in which conversation, what
// they said, which models may answer, and the ids of the reply being written. A step takes the context and the few
// values only it needs, never a bag of spread fields (docs/turn.md lists the steps).

import type { ToolChoice, ToolSet } from "ai";
import type { Database } from "@/db/client";
import type { Conversation, Message, Model, Persona } from "@/db/schema";
import type { SessionUser } from "@/lib/api/route";
import type { TurnAction } from "./turn-user-message";

export interface TurnContext {
  db: Database;
  user: SessionUser;
  conversation: Conversation;
  persona: Persona;
  action: TurnAction;
  /** The user's message the turn answers: stored by this turn, or (regenerate) the one already stored. */
  userMessage: Message;
  /** The persona's own model (the summary decision reads its window), null when it is not in the registry. */
  personaModel: Model | null;
  /** The models that may answer, in the order they are tried. */
  modelRows: Model[];
  /** The reply's id and the turn's, known before their rows are written. */
  assistantMessageId: string;
  turnId: string;
  /** Tools the caller runs itself (a gateway client's): offered beside the persona's, without an execute. */
  clientTools?: ClientTools;
}

/** A caller's own tools: the model's calls of them end the reply (finish reason tool-calls) for the caller to run. */
export interface ClientTools {
  tools: ToolSet;
  toolChoice?: ToolChoice<ToolSet>;
}
