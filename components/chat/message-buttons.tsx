"use client";
// The buttons user messages and replies share: edit in place and branch from here.
import { BranchIcon, PencilIcon } from "@/components/ui/icons";

/** `forksQuestion`: a user message, whose edit (once it is answered) is a new version with its own answer. */
export function EditButton({ onEdit, forksQuestion }: { onEdit: () => void; forksQuestion: boolean }) {
  return (
    <button
      type="button"
      className="button-ghost-sm"
      onClick={onEdit}
      data-testid="edit-message"
      title={
        forksQuestion
          ? "Edit: an answered question gets a new version with its own answer (< > switches between them)"
          : "Edit this message in place (the earlier version is kept)"
      }
    >
      <PencilIcon size={14} />
      Edit
    </button>
  );
}

export function BranchButton({ onBranch }: { onBranch: () => void }) {
  return (
    <button
      type="button"
      className="button-ghost-sm"
      onClick={onBranch}
      data-testid="branch-message"
      title="A new conversation with the messages up to this one"
    >
      <BranchIcon size={14} />
      Branch
    </button>
  );
}
