"use client";
// What the inspector beside the transcript shows: a reply's payload or the preview of the next one, or nothing.
import { useCallback, useState } from "react";
import type { InspectorTarget } from "@/components/inspector/inspector-panel";
import { revealMessage } from "../reveal-message";

/** Below this width the inspector is a drawer over the transcript (Tailwind's lg breakpoint). */
const SIDE_BY_SIDE_MIN_WIDTH = 1024;

export function useInspectorTarget() {
  const [target, setTarget] = useState<InspectorTarget | null>(null);
  /** Inspect a reply, or close the inspector when it already shows that reply. */
  const toggleReply = useCallback(
    (messageId: string) =>
      setTarget((current) =>
        current?.kind === "reply" && current.messageId === messageId ? null : { kind: "reply", messageId },
      ),
    [],
  );
  const togglePreview = useCallback(
    () => setTarget((current) => (current?.kind === "preview" ? null : { kind: "preview" })),
    [],
  );
  const close = useCallback(() => setTarget(null), []);
  /** Scroll the transcript to a message the inspector links to. */
  const revealInTranscript = useCallback((messageId: string) => {
    // On a small screen the drawer covers the transcript: close it so the message can be seen.
    if (window.innerWidth < SIDE_BY_SIDE_MIN_WIDTH) setTarget(null);
    requestAnimationFrame(() => revealMessage(messageId));
  }, []);
  return { target, toggleReply, togglePreview, close, revealInTranscript };
}
