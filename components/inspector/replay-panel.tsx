"use client";
// "Replay" on an attempt: send it again, unchanged or to another model or with a what-if (a context note at a
// depth, another persona prompt), never touching the conversation; the result opens beside the original.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { turnsKey } from "@/components/chat/api";
import { apiFetch } from "@/components/ui/api-client";
import { Disclosure } from "@/components/ui/disclosure";
import { PendingButton } from "@/components/ui/form-controls";
import { Labelled } from "@/components/ui/labelled";
import type { ApiOutput } from "@/lib/api/responses";
import { ReplayComparison } from "./replay-comparison";
import { type AttemptView, readAttemptView } from "./types";

interface ReplayBody {
  modelId?: string;
  settings?: { contextNote: { text: string; depth?: number } };
  systemPrompt?: string;
}

/** Only what the user changed goes in the body: an empty form replays the recorded body as it was. */
function replayBody(
  source: AttemptView,
  form: { modelId: string; note: string; depth: string; prompt: string },
) {
  const body: ReplayBody = {};
  if (form.modelId.trim() && form.modelId.trim() !== source.modelId) body.modelId = form.modelId.trim();
  if (form.note.trim()) {
    body.settings = {
      contextNote: { text: form.note, ...(form.depth.trim() ? { depth: Number(form.depth) } : {}) },
    };
  }
  if (form.prompt.trim()) body.systemPrompt = form.prompt;
  return body;
}

export function ReplayPanel({
  conversationId,
  source,
  modelIds,
}: {
  conversationId: string;
  source: AttemptView;
  /** Models to offer (those seen in this conversation); any other enabled model id may be typed. */
  modelIds: string[];
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ modelId: source.modelId, note: "", depth: "", prompt: "" });
  const replay = useMutation({
    mutationFn: (body: ReplayBody) =>
      apiFetch<ApiOutput<"POST /api/attempts/:id/replay">>(`/api/attempts/${source.id}/replay`, {
        method: "POST",
        body,
      }).then((answer) => readAttemptView(answer.attempt)),
    // The replay is one of the conversation's other model calls now.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: turnsKey(conversationId) }),
  });
  const rebuildOnly = source.kind !== "reply";
  // Only a reply can be sent with changes: other kinds replay as recorded.
  const field = (name: keyof typeof form, testId: string) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
    disabled: rebuildOnly,
    "data-testid": testId,
  });

  return (
    <Disclosure className="text-xs" testId="replay-panel" summary="Replay this attempt">
      <div className="mt-1.5 space-y-2">
        <div className="grid grid-cols-2 gap-2">
          <Labelled label="Model">
            <input
              list={`replay-models-${source.id}`}
              className="input-sm mt-0.5 font-mono"
              {...field("modelId", "replay-model")}
            />
            <datalist id={`replay-models-${source.id}`}>
              {modelIds.map((modelId) => (
                <option key={modelId} value={modelId} />
              ))}
            </datalist>
          </Labelled>
          <Labelled label="What if: note depth">
            <input
              type="number"
              min={0}
              className="input-sm mt-0.5 font-mono"
              {...field("depth", "replay-note-depth")}
            />
          </Labelled>
        </div>
        <Labelled label="What if: context note">
          <input className="input-sm mt-0.5" {...field("note", "replay-note")} />
        </Labelled>
        <Labelled label="What if: persona prompt">
          <textarea rows={2} className="input-sm mt-0.5" {...field("prompt", "replay-prompt")} />
        </Labelled>
        <PendingButton
          className="button-secondary"
          pending={replay.isPending}
          pendingLabel="Replaying…"
          onClick={() => replay.mutate(replayBody(source, form))}
          testId="replay-button"
        >
          Replay
        </PendingButton>
        {replay.error && (
          <p className="text-red-700 dark:text-red-300" data-testid="replay-error">
            {replay.error.message}
          </p>
        )}
        {replay.data && <ReplayComparison original={source} replay={replay.data} />}
      </div>
    </Disclosure>
  );
}
