"use client";
// The prompt inspector: a column beside the chat on large screens, a drawer over it on small ones. It shows one
// assistant reply's attempts, or a preview of the next turn's payload.
import type { CSSProperties } from "react";
import { DrawerBackdrop } from "@/components/ui/drawer";
import { IconButton } from "@/components/ui/icon-button";
import { CloseIcon, InspectIcon, SparkIcon } from "@/components/ui/icons";
import { PreviewInspector } from "./preview-inspector";
import { ReplyInspector } from "./reply-inspector";
import { ResizeHandle } from "./resize-handle";
import { useInspectorWidth } from "./use-inspector-width";

export type InspectorTarget = { kind: "reply"; messageId: string } | { kind: "preview" };

export function InspectorPanel({
  conversationId,
  target,
  replyStreaming,
  draft,
  onClose,
  onRevealMessage,
}: {
  conversationId: string;
  target: InspectorTarget;
  /** The inspected reply is still streaming: its attempts are recorded when it ends. */
  replyStreaming: boolean;
  draft: string;
  onClose: () => void;
  onRevealMessage: (messageId: string) => void;
}) {
  const { width, maxWidth, setWidth } = useInspectorWidth();
  return (
    <>
      <DrawerBackdrop open onClose={onClose} hideFrom="lg" testId="inspector-backdrop" />
      <aside
        // From lg the width is the reader's (a CSS variable); the max-width keeps the chat column readable
        // whatever was stored (46rem = the sidebar's 16rem + the chat's 30rem).
        className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-zinc-200 bg-white shadow-2xl sm:w-[36rem] lg:relative lg:z-auto lg:w-(--inspector-width) lg:max-w-[calc(100vw-46rem)] lg:min-w-80 lg:shrink-0 lg:shadow-none dark:border-zinc-800 dark:bg-zinc-950"
        style={{ "--inspector-width": `${width}px` } as CSSProperties}
        data-testid="inspector"
        data-mode={target.kind}
        aria-label="Prompt inspector"
        data-width={width}
      >
        <ResizeHandle width={width} maxWidth={maxWidth} onResize={setWidth} />
        <header className="flex h-14 shrink-0 items-center gap-2 border-b border-zinc-200 px-3 dark:border-zinc-800">
          <span className="flex size-7 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
            {target.kind === "preview" ? <SparkIcon /> : <InspectIcon />}
          </span>
          <div className="min-w-0 flex-1">
            <h2 className="text-sm font-semibold">Prompt inspector</h2>
            <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">
              {target.kind === "preview"
                ? "Preview of the next turn — no model is called"
                : "What this reply was built from, attempt by attempt"}
            </p>
          </div>
          <IconButton label="Close inspector" onClick={onClose} testId="inspector-close">
            <CloseIcon />
          </IconButton>
        </header>
        {target.kind === "reply" ? (
          <ReplyInspector
            key={target.messageId}
            conversationId={conversationId}
            messageId={target.messageId}
            streaming={replyStreaming}
            onRevealMessage={onRevealMessage}
          />
        ) : (
          <PreviewInspector conversationId={conversationId} draft={draft} onRevealMessage={onRevealMessage} />
        )}
      </aside>
    </>
  );
}
