// The preview's "what if" edits → the settings override the preview API takes. Each edited section is sent whole
// (the resolved values with the edits on top), so keys the reader did not touch keep their resolved values.

import type { NoteRole } from "@/components/ui/note-role-options";
import type { ResolvedSettings, SettingsOverride } from "@/lib/domain/settings";

export interface PreviewEdits {
  noteText?: string;
  noteDepth?: string;
  noteRole?: NoteRole;
  maxItems?: string;
  mediaWindow?: string;
  imageMessageLimit?: string;
  maxImagesPerRequest?: string;
}

/** A typed number; anything else becomes NaN, sent as null, and the server names the key and its range. */
function wholeNumber(value: string): number {
  return value.trim() === "" ? Number.NaN : Number(value);
}

export function hasEdits(edits: PreviewEdits): boolean {
  return Object.values(edits).some((value) => value !== undefined);
}

export function previewOverride(
  base: ResolvedSettings,
  edits: PreviewEdits,
  conversationNote: string,
): SettingsOverride | undefined {
  if (!hasEdits(edits)) return undefined;
  // Sent explicitly: an override document that omits it would reset it to the default (empty).
  const override: SettingsOverride = { keyContextReminder: base.keyContextReminder };
  if (edits.noteText !== undefined || edits.noteDepth !== undefined || edits.noteRole !== undefined) {
    override.contextNote = {
      ...base.contextNote,
      // The preview's note text stands for this conversation's note (see lib/chat/turn/preview-turn.ts).
      text: edits.noteText ?? (conversationNote || base.contextNote.text),
      depth: edits.noteDepth !== undefined ? wholeNumber(edits.noteDepth) : base.contextNote.depth,
      role: edits.noteRole ?? base.contextNote.role,
    };
  }
  if (edits.maxItems !== undefined) {
    override.history = {
      ...base.history,
      maxItems: edits.maxItems.trim() === "" ? null : wholeNumber(edits.maxItems),
    };
  }
  if (
    edits.mediaWindow !== undefined ||
    edits.imageMessageLimit !== undefined ||
    edits.maxImagesPerRequest !== undefined
  ) {
    override.media = {
      ...base.media,
      window: edits.mediaWindow !== undefined ? wholeNumber(edits.mediaWindow) : base.media.window,
      imageMessageLimit:
        edits.imageMessageLimit !== undefined
          ? wholeNumber(edits.imageMessageLimit)
          : base.media.imageMessageLimit,
      maxImagesPerRequest:
        edits.maxImagesPerRequest !== undefined
          ? wholeNumber(edits.maxImagesPerRequest)
          : base.media.maxImagesPerRequest,
    };
  }
  return override;
}

/** The preview box's placeholder, and the message previewed while the box is empty (a turn needs one). */
export const PLACEHOLDER_TEXT = "Your next message";
