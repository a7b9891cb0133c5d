"use client";
// The next message as it is written: its text and the files attached to it (uploaded as they are picked). Sending
// clears both; in a room, typing tells the others.
import type { FileUIPart } from "ai";
import { useState } from "react";
import { useAttachmentPicker } from "../attachment-picker";

export function useComposerDraft({
  conversationId,
  send,
  onTyping,
}: {
  conversationId: string;
  send: (text: string, files: FileUIPart[]) => void;
  /** Called as the user types something (the room's typing notice). */
  onTyping?: () => void;
}) {
  const [draft, setDraft] = useState("");
  const picker = useAttachmentPicker(conversationId);
  const change = (value: string) => {
    setDraft(value);
    if (value.trim()) onTyping?.();
  };
  const submit = () => {
    const text = draft.trim();
    const files = picker.ready.map(
      (attachment): FileUIPart => ({
        type: "file",
        mediaType: attachment.mime,
        url: attachment.url,
        ...(attachment.filename ? { filename: attachment.filename } : {}),
      }),
    );
    if (!text && files.length === 0) return;
    setDraft("");
    picker.clear();
    send(text, files);
  };
  return { draft, change, submit, picker };
}
