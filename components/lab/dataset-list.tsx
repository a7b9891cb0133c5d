"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
// The datasets page (docs/lab.md): the reader's datasets, each opening its page (experiments) or deleted.
import { ErrorMessage } from "@/components/ui/error-message";
import { ItemList } from "@/components/ui/item-list";
import { PageHeading } from "@/components/ui/page-heading";
import { datasetsKey, deleteDataset, listDatasets } from "./api";

export function DatasetList() {
  const queryClient = useQueryClient();
  const datasets = useQuery({ queryKey: datasetsKey, queryFn: listDatasets });
  const remove = useMutation({
    mutationFn: deleteDataset,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: datasetsKey }),
  });
  const error = datasets.error ?? remove.error;
  return (
    <main id="main-content" className="mx-auto max-w-2xl space-y-5 p-6" data-testid="dataset-list">
      <PageHeading title="Datasets" />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        A dataset is a set of conversations to try a change on: a policy, a persona, a prompt or a model.
        Build one from the sidebar (Select) or from the calls page.
      </p>
      <ErrorMessage message={error?.message} testId="dataset-list-error" />
      <ItemList
        items={datasets.data?.datasets}
        emptyText="No datasets yet."
        emptyTestId="no-datasets"
        className="space-y-2"
      >
        {(dataset) => (
          <li
            className="flex items-center justify-between gap-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
            data-testid="dataset-row"
          >
            <Link
              href={`/datasets/${dataset.id}`}
              className="font-medium hover:underline"
              data-testid="dataset-open"
            >
              {dataset.name}
            </Link>
            <span className="flex items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
              {dataset.conversationIds.length} conversations
              <button
                type="button"
                className="text-red-700 hover:underline dark:text-red-300"
                onClick={() => remove.mutate(dataset.id)}
                data-testid="dataset-delete"
              >
                Delete
              </button>
            </span>
          </li>
        )}
      </ItemList>
    </main>
  );
}
