"use client";
// The row under a stored reply: flip between its variants, copy, inspect its payload, regenerate (or retry a
// failed one), regenerate with another model or compare several, then edit, branch and its earlier versions.
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { InspectIcon, RefreshIcon } from "@/components/ui/icons";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { ComparePicker } from "./compare-picker";
import { type MessageActions, messageText } from "./message-parts";
import { StepButtons } from "./step-buttons";

/** What the row needs to know about its reply; the reply passes them on as it got them. */
export interface ReplyActionsProps {
  message: ChatUIMessage;
  storedId: string;
  inspected: boolean;
  /** The latest reply: it can get a new variant, or another of its variants can be chosen. */
  canRegenerate: boolean;
  actions: MessageActions;
}

export function ReplyActions({
  message,
  storedId,
  inspected,
  canRegenerate,
  actions,
  children,
}: ReplyActionsProps & {
  /** Edit, branch and the earlier versions, shown last. */
  children: ReactNode;
}) {
  const text = messageText(message);
  const failed = message.metadata?.status === "error";
  const variants = message.metadata?.variants;
  return (
    <div className="mt-1.5 -ml-2 flex flex-wrap items-center gap-0.5 text-zinc-600 dark:text-zinc-300">
      {variants && (
        // `< 2 / 3 >`: the reply's variants, oldest first; only the latest reply's can be changed.
        <span
          className="mr-1 inline-flex items-center"
          data-testid="variant-pager"
          title={
            canRegenerate
              ? undefined
              : "Only the latest reply's variant can be changed: branch from here to take another path"
          }
        >
          <StepButtons
            versions={variants}
            enabled={canRegenerate}
            onStep={(variantId) => void actions.onChooseVariant(variantId)}
            what="variant"
            testIds={{ previous: "variant-previous", position: "variant-position", next: "variant-next" }}
          />
        </span>
      )}
      {text && <CopyButton text={text} testId="copy-message" />}
      <button
        type="button"
        className={`button-ghost-sm ${inspected ? "bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300" : ""}`}
        onClick={() => actions.onInspect(storedId)}
        data-testid="inspect-button"
        aria-pressed={inspected}
      >
        <InspectIcon />
        Inspect
      </button>
      {canRegenerate && (
        <button
          type="button"
          className="button-ghost-sm"
          onClick={() => actions.onRegenerate(storedId)}
          data-testid={failed ? "retry-reply" : "regenerate-button"}
          title={
            failed
              ? "Run the reply again; the failed one is replaced"
              : "Write another variant of this reply; the others are kept"
          }
        >
          <RefreshIcon />
          {failed ? "Retry" : "Regenerate"}
        </button>
      )}
      {canRegenerate && actions.regenerateModels.length > 0 && (
        <select
          className="button-ghost-sm bg-transparent field-sizing-content"
          aria-label="Regenerate with another model"
          data-testid="regenerate-with"
          value=""
          onChange={(event) => {
            if (event.target.value) actions.onRegenerate(storedId, event.target.value);
          }}
        >
          <option value="">Regenerate with…</option>
          {actions.regenerateModels.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label} ({model.id})
            </option>
          ))}
        </select>
      )}
      {canRegenerate && !failed && actions.regenerateModels.length > 0 && (
        <ComparePicker
          models={actions.regenerateModels}
          onCompare={(modelIds) => actions.onCompare(storedId, modelIds)}
        />
      )}
      {children}
    </div>
  );
}
