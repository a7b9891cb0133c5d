"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
// "Save as dataset": a name for the chosen conversations, then the new dataset's page (docs/lab.md).
import { ErrorMessage } from "@/components/ui/error-message";
import { submitHandler } from "@/components/ui/submit-handler";
import { createDataset, datasetsKey } from "./api";

export function SaveDatasetForm({
  conversationIds,
  label = "Save as dataset",
}: {
  conversationIds: readonly string[];
  label?: string;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const save = useMutation({
    mutationFn: () => createDataset(name, [...conversationIds]),
    onSuccess: ({ dataset }) => {
      void queryClient.invalidateQueries({ queryKey: datasetsKey });
      router.push(`/datasets/${dataset.id}`);
    },
  });
  return (
    <form
      className="space-y-1.5"
      data-testid="save-dataset-form"
      onSubmit={submitHandler(() => save.mutate())}
    >
      <div className="flex gap-1.5">
        <input
          className="input min-w-0 flex-1"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Dataset name"
          aria-label="Dataset name"
          maxLength={200}
          required
          data-testid="dataset-name"
        />
        <button
          type="submit"
          className="button-primary whitespace-nowrap"
          disabled={conversationIds.length === 0 || save.isPending}
          data-testid="save-dataset"
        >
          {label} ({conversationIds.length})
        </button>
      </div>
      <ErrorMessage message={save.error?.message} testId="save-dataset-error" />
    </form>
  );
}
