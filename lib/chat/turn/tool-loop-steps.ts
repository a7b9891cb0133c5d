// The items a tool loop adds between its model calls. Each call after the first carries the payload plus what the
// earlier steps produced (the model's reasoning, text and calls, then the tools' results): those become items here,
// so each step's request is reconciled against the items it really carried (docs/features.md#wire-reconciliation).

import "server-only";
import type { TextStreamPart, ToolSet } from "ai";
import { countItemTokens } from "@/lib/context/tokens";
import type { ContextItem, ItemPart, ProviderMetadata, TokenizerName } from "@/lib/domain/types";

export class ToolLoopSteps {
  /** The step being streamed: the parts of the model's reply, then the tools' results. */
  private replyParts: ItemPart[] = [];
  private resultParts: ItemPart[] = [];
  private readonly reasoningById = new Map<string, Extract<ItemPart, { type: "reasoning" }>>();
  private stepNumber = 0;
  /** Items the finished steps added that no request has carried yet. */
  private pending: ContextItem[] = [];

  constructor(private readonly tokenizer: TokenizerName) {}

  observe(part: TextStreamPart<ToolSet>) {
    switch (part.type) {
      case "reasoning-start": {
        const reasoning = { type: "reasoning" as const, text: "", ...metadata(part.providerMetadata) };
        this.reasoningById.set(part.id, reasoning);
        this.replyParts.push(reasoning);
        break;
      }
      case "reasoning-delta":
      case "reasoning-end": {
        const reasoning = this.reasoningById.get(part.id);
        if (!reasoning) break;
        if (part.type === "reasoning-delta") reasoning.text += part.text;
        if (part.providerMetadata) reasoning.providerMetadata = part.providerMetadata as ProviderMetadata;
        break;
      }
      case "text-delta": {
        const last = this.replyParts.at(-1);
        if (last?.type === "text") last.text += part.text;
        else this.replyParts.push({ type: "text", text: part.text });
        break;
      }
      case "tool-call":
        this.replyParts.push({
          type: "tool-call",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          ...metadata(part.providerMetadata),
        });
        break;
      case "tool-result": {
        const result: ItemPart = {
          type: "tool-result",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: part.output,
          ...metadata(part.providerMetadata),
        };
        // A provider-run tool's result travels back in the model's own message, beside its call.
        if (part.providerExecuted) this.replyParts.push(result);
        else this.resultParts.push(result);
        break;
      }
      case "tool-error":
        this.resultParts.push({
          type: "tool-result",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          output: { error: part.error instanceof Error ? part.error.message : String(part.error) },
        });
        break;
      case "finish-step":
        this.finishStep();
        break;
    }
  }

  /**
   * The items added since the last request, for the request that starts now. They are counted here, not as their
   * step finishes: a reply's last step (most turns' only one) is carried by no request, and its text is long.
   */
  takeAdded(): ContextItem[] {
    const added = this.pending;
    this.pending = [];
    for (const item of added) item.tokens = countItemTokens(item, this.tokenizer);
    return added;
  }

  private finishStep() {
    this.stepNumber += 1;
    const reply = this.replyParts.filter((part) => part.type !== "text" || part.text !== "");
    const hasCalls = reply.some((part) => part.type === "tool-call");
    if (reply.length > 0) {
      this.pending.push(
        this.item(
          `step:${this.stepNumber}:reply`,
          "assistant",
          hasCalls ? "TOOL_CALL" : "DIALOGUE_HISTORY",
          reply,
        ),
      );
    }
    if (this.resultParts.length > 0) {
      this.pending.push(
        this.item(`step:${this.stepNumber}:results`, "tool", "TOOL_RESULT", this.resultParts),
      );
    }
    this.replyParts = [];
    this.resultParts = [];
    this.reasoningById.clear();
  }

  private item(
    id: string,
    role: ContextItem["role"],
    tag: ContextItem["tag"],
    parts: ItemPart[],
  ): ContextItem {
    return { id, role, tag, parts, sourceMessageIds: [], tokens: 0 };
  }
}

function metadata(providerMetadata: unknown): { providerMetadata?: ProviderMetadata } {
  return providerMetadata ? { providerMetadata: providerMetadata as ProviderMetadata } : {};
}
