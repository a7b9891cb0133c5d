"use client";
import { NoteRoleOptions } from "@/components/ui/note-role-options";
// The preview's inputs: the next message and the settings to try, applied to the dry run as they are typed.
import type { ResolvedSettings } from "@/lib/context/settings";
import { SETTING_HELP } from "@/lib/context/settings";
import type { PreviewEdits } from "./preview-settings";

function NumberField({
  label,
  help,
  value,
  placeholder,
  min,
  max,
  onChange,
  testId,
}: {
  label: string;
  help: string;
  value: string;
  placeholder?: string;
  min: number;
  max: number;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <label className="block" title={help}>
      <span className="label-text">{label}</span>
      <input
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        className="input-sm mt-0.5 font-mono"
        data-testid={testId}
      />
    </label>
  );
}

export function PreviewControls({
  text,
  onText,
  edits,
  onEdit,
  onReset,
  base,
  conversationNote,
}: {
  text: string;
  onText: (text: string) => void;
  edits: PreviewEdits;
  onEdit: (edits: PreviewEdits) => void;
  onReset: () => void;
  base: ResolvedSettings | null;
  conversationNote: string;
}) {
  const set = (key: keyof PreviewEdits) => (value: string) => onEdit({ ...edits, [key]: value });
  const edited = Object.values(edits).some((value) => value !== undefined);
  return (
    <div className="space-y-3" data-testid="preview-controls">
      <label className="block">
        <span className="label-text">Next message</span>
        <textarea
          value={text}
          onChange={(event) => onText(event.target.value)}
          rows={2}
          className="input-sm mt-0.5 resize-y text-sm"
          data-testid="preview-text"
        />
      </label>
      <details open className="group rounded-lg border border-zinc-200 dark:border-zinc-800">
        <summary className="flex cursor-pointer list-none items-center justify-between px-2.5 py-1.5 text-xs font-medium select-none">
          <span>
            Try other settings{" "}
            <span className="font-normal text-zinc-500 dark:text-zinc-400">
              — this dry run only; nothing is saved
            </span>
          </span>
          {edited && (
            <button
              type="button"
              onClick={(event) => {
                event.preventDefault();
                onReset();
              }}
              className="button-ghost-sm"
              data-testid="preview-reset"
            >
              Reset
            </button>
          )}
        </summary>
        <div className="space-y-2.5 border-t border-zinc-200 p-2.5 dark:border-zinc-800">
          <label className="block" title={SETTING_HELP["contextNote.text"]}>
            <span className="label-text">Context note</span>
            <textarea
              value={edits.noteText ?? (conversationNote || base?.contextNote.text || "")}
              onChange={(event) => onEdit({ ...edits, noteText: event.target.value })}
              rows={2}
              maxLength={4_000}
              placeholder="No note. Type one to see where it lands."
              className="input-sm mt-0.5 resize-y"
              data-testid="preview-note-text"
            />
          </label>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <NumberField
              label="Note depth"
              help={SETTING_HELP["contextNote.depth"]}
              value={edits.noteDepth ?? String(base?.contextNote.depth ?? "")}
              min={0}
              max={1_000}
              onChange={set("noteDepth")}
              testId="preview-note-depth"
            />
            <label className="block" title={SETTING_HELP["contextNote.role"]}>
              <span className="label-text">Note role</span>
              <select
                value={edits.noteRole ?? base?.contextNote.role ?? "user"}
                onChange={(event) =>
                  onEdit({ ...edits, noteRole: event.target.value as PreviewEdits["noteRole"] })
                }
                className="input-sm mt-0.5"
                data-testid="preview-note-role"
              >
                <NoteRoleOptions />
              </select>
            </label>
            <NumberField
              label="History max items"
              help={SETTING_HELP["history.maxItems"]}
              value={edits.maxItems ?? (base?.history.maxItems == null ? "" : String(base.history.maxItems))}
              placeholder="no cap"
              min={2}
              max={10_000}
              onChange={set("maxItems")}
              testId="preview-max-items"
            />
            <NumberField
              label="Media window"
              help={SETTING_HELP["media.window"]}
              value={edits.mediaWindow ?? String(base?.media.window ?? "")}
              min={0}
              max={1_000}
              onChange={set("mediaWindow")}
              testId="preview-media-window"
            />
            <NumberField
              label="Image messages"
              help={SETTING_HELP["media.imageMessageLimit"]}
              value={edits.imageMessageLimit ?? String(base?.media.imageMessageLimit ?? "")}
              min={0}
              max={100}
              onChange={set("imageMessageLimit")}
              testId="preview-image-limit"
            />
            <NumberField
              label="Images per request"
              help={SETTING_HELP["media.maxImagesPerRequest"]}
              value={edits.maxImagesPerRequest ?? String(base?.media.maxImagesPerRequest ?? "")}
              min={0}
              max={20}
              onChange={set("maxImagesPerRequest")}
              testId="preview-max-images"
            />
          </div>
        </div>
      </details>
    </div>
  );
}
