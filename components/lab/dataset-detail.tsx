"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
// A dataset's page (docs/lab.md): its conversations, its experiments, and a form that starts one: what-if settings
// (a JSON override, as the inspector's preview takes), a persona prompt, a model, and whether to send both for real.
import { ErrorMessage } from "@/components/ui/error-message";
import { CheckboxField, PendingButton, TextAreaField, TextField } from "@/components/ui/form-controls";
import { PageHeading } from "@/components/ui/page-heading";
import { submitHandler } from "@/components/ui/submit-handler";
import { getDataset, startExperiment } from "./api";

export function DatasetDetail({ datasetId }: { datasetId: string }) {
  const dataset = useQuery({ queryKey: ["dataset", datasetId], queryFn: () => getDataset(datasetId) });
  return (
    <main id="main-content" className="mx-auto max-w-3xl space-y-5 p-6" data-testid="dataset-detail">
      <PageHeading title={dataset.data ? `Dataset: ${dataset.data.dataset.name}` : "Dataset"} />
      <Link href="/datasets" className="text-sm underline">
        All datasets
      </Link>
      <ErrorMessage message={dataset.error?.message} testId="dataset-detail-error" />
      {dataset.data && (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dataset-size">
            {dataset.data.dataset.conversationIds.length} conversations
          </p>
          <ExperimentForm datasetId={datasetId} />
          <section className="space-y-2">
            <h2 className="font-medium">Experiments</h2>
            {dataset.data.experiments.length === 0 && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">None yet.</p>
            )}
            <ul className="space-y-1 text-sm">
              {dataset.data.experiments.map((experiment) => (
                <li key={experiment.id} data-testid="dataset-experiment">
                  <Link href={`/experiments/${experiment.id}`} className="hover:underline">
                    {new Date(experiment.createdAt).toLocaleString()} · {experiment.status}
                    {experiment.live ? " · live" : " · dry"}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </main>
  );
}

function parseSettings(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error('The settings must be a JSON object, e.g. {"contextNote": {"text": "…", "depth": 0}}.');
  }
  return parsed as Record<string, unknown>;
}

function ExperimentForm({ datasetId }: { datasetId: string }) {
  const router = useRouter();
  const [settings, setSettings] = useState("");
  const [personaPrompt, setPersonaPrompt] = useState("");
  const [modelId, setModelId] = useState("");
  const [live, setLive] = useState(false);
  const start = useMutation({
    mutationFn: () => {
      const candidate: Record<string, unknown> = {};
      const override = parseSettings(settings);
      if (override) candidate.settings = override;
      if (personaPrompt.trim() !== "") candidate.personaPrompt = personaPrompt;
      if (modelId.trim() !== "") candidate.modelId = modelId.trim();
      return startExperiment(datasetId, { candidate, live });
    },
    onSuccess: ({ experiment }) => router.push(`/experiments/${experiment.id}`),
  });
  return (
    <form
      className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
      data-testid="experiment-form"
      onSubmit={submitHandler(() => start.mutate())}
    >
      <h2 className="font-medium">Run an experiment</h2>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Each conversation's next turn is built as today and with this candidate. Dry by default: nothing is
        sent.
      </p>
      <TextAreaField
        label="What-if settings (JSON override)"
        rows={4}
        value={settings}
        onChange={setSettings}
        placeholder='{"contextNote": {"text": "Keep it short.", "depth": 0}}'
        testId="experiment-settings"
      />
      <TextAreaField
        label="Persona prompt (empty: the persona's own)"
        rows={2}
        value={personaPrompt}
        onChange={setPersonaPrompt}
        testId="experiment-persona-prompt"
      />
      <TextField
        label="Model (empty: each conversation's own)"
        value={modelId}
        onChange={setModelId}
        placeholder="openai:gpt-4.1-mini"
        testId="experiment-model"
      />
      <CheckboxField
        label="Live: also send both to the model (replays of each conversation's last reply; costs money)"
        checked={live}
        onChange={setLive}
        testId="experiment-live"
        className="flex items-center gap-2 text-sm"
      />
      <ErrorMessage message={start.error?.message} testId="experiment-form-error" />
      <PendingButton type="submit" pending={start.isPending} testId="experiment-start">
        Start experiment
      </PendingButton>
    </form>
  );
}
