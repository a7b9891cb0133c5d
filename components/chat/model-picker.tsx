"use client";
// The conversation's model in the header: the owner chooses it (or goes back to the persona's); others see it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ConversationDetail, conversationKey, updateConversation } from "./api";

export function ModelPicker({
  conversationId,
  detail,
}: {
  conversationId: string;
  detail: ConversationDetail;
}) {
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: (modelId: string | null) => updateConversation(conversationId, { modelId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationKey(conversationId) }),
  });
  const modelId = detail.conversation.modelId ?? detail.persona.modelId;
  return (
    <>
      <span className="font-mono" data-testid="model-id">
        {modelId}
      </span>
      {modelId.startsWith("offline:") && <span data-testid="offline-label"> (offline model)</span>}
      {detail.conversation.isOwner && (
        <select
          className="ml-2 max-w-64 rounded border border-zinc-300 bg-transparent text-xs field-sizing-content dark:border-zinc-700"
          aria-label="The model that answers in this conversation"
          data-testid="model-picker"
          value={detail.conversation.modelId ?? ""}
          disabled={choose.isPending}
          onChange={(event) => choose.mutate(event.target.value || null)}
        >
          <option value="">The persona's ({detail.persona.modelId})</option>
          {detail.models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label} ({model.id})
            </option>
          ))}
        </select>
      )}
      {choose.error && (
        <span className="ml-2 text-red-700 dark:text-red-300" role="alert" data-testid="model-picker-error">
          {choose.error.message}
        </span>
      )}
    </>
  );
}
