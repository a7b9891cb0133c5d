"use client";
// The sidebar's select mode (docs/lab.md): a checkbox per conversation, then "Save as dataset" for those ticked.
import type { ConversationSummary } from "@/components/chat/api";
import { SaveDatasetForm } from "./save-dataset-form";

export function ConversationSelectList({
  conversations,
  chosen,
  onChange,
}: {
  conversations: readonly ConversationSummary[];
  chosen: ReadonlySet<string>;
  onChange: (chosen: Set<string>) => void;
}) {
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <div className="space-y-2" data-testid="conversation-select-list">
      <SaveDatasetForm
        conversationIds={conversations.filter((row) => chosen.has(row.id)).map((row) => row.id)}
      />
      <ul className="space-y-px">
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800">
              <input
                type="checkbox"
                checked={chosen.has(conversation.id)}
                onChange={() => toggle(conversation.id)}
                data-testid="conversation-select"
                data-conversation-id={conversation.id}
              />
              <span className="truncate">{conversation.title}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
