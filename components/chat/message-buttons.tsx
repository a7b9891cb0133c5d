"use client";
// The buttons user messages and replies share: edit in place and branch from here.
import { PencilIcon } from "@/components/ui/icons";

const BranchIcon = () => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    aria-hidden
  >
    <circle cx="6" cy="5" r="2" />
    <circle cx="6" cy="19" r="2" />
    <circle cx="18" cy="7" r="2" />
    <path d="M6 7v10M18 9c0 5-6 4-11 8" />
  </svg>
);

export function EditButton({ onEdit }: { onEdit: () => void }) {
  return (
    <button
      type="button"
      className="button-ghost-sm"
      onClick={onEdit}
      data-testid="edit-message"
      title="Edit this message in place (the earlier version is kept)"
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
      <BranchIcon />
      Branch
    </button>
  );
}
