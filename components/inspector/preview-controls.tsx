"use client";
import { readKey } from "@/components/admin/settings-override";
import { Labelled } from "@/components/ui/labelled";
import { NoteRoleOptions } from "@/components/ui/note-role-options";
// The preview's inputs: the next message and the settings to try, applied to the dry run as they are typed.
import type { ResolvedSettings } from "@/lib/domain/settings";
import { SETTING_HELP } from "@/lib/domain/settings";
import { PLACEHOLDER_TEXT, type PreviewEdits } from "./preview-settings";

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
    <Labelled label={label} title={help}>
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
    </Labelled>
  );
}

/** The limits to try after the note's fields: the edit key, label, settings key, range and test id. Each shows the
 * resolved value until edited. */
const LIMIT_FIELDS = [
  ["maxItems", "History max items", "history.maxItems", 2, 10_000, "preview-max-items"],
  ["mediaWindow", "Media window", "media.window", 0, 1_000, "preview-media-window"],
  ["imageMessageLimit", "Image messages", "media.imageMessageLimit", 0, 100, "preview-image-limit"],
  ["maxImagesPerRequest", "Images per request", "media.maxImagesPerRequest", 0, 20, "preview-max-images"],
] as const;

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
      <Labelled label="Next message">
        <textarea
          value={text}
          onChange={(event) => onText(event.target.value)}
          rows={2}
          placeholder={PLACEHOLDER_TEXT}
          className="input-sm mt-0.5 resize-y text-sm"
          data-testid="preview-text"
        />
      </Labelled>
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
          <Labelled label="Context note" title={SETTING_HELP["contextNote.text"]}>
            <textarea
              value={edits.noteText ?? (conversationNote || base?.contextNote.text || "")}
              onChange={(event) => onEdit({ ...edits, noteText: event.target.value })}
              rows={2}
              maxLength={4_000}
              placeholder="No note. Type one to see where it lands."
              className="input-sm mt-0.5 resize-y"
              data-testid="preview-note-text"
            />
          </Labelled>
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
            <Labelled label="Note role" title={SETTING_HELP["contextNote.role"]}>
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
            </Labelled>
            {LIMIT_FIELDS.map(([key, label, setting, min, max, testId]) => (
              <NumberField
                key={key}
                label={label}
                help={SETTING_HELP[setting]}
                value={edits[key] ?? String((base && readKey(base, setting)) ?? "")}
                placeholder={key === "maxItems" ? "no cap" : undefined}
                min={min}
                max={max}
                onChange={set(key)}
                testId={testId}
              />
            ))}
          </div>
        </div>
      </details>
    </div>
  );
}
