"use client";
// Invitations waiting for the reader, named in the sidebar ("Ada invited you to Trip planning") with a link to
// the invitations page, where they are accepted or declined: without it an invited person would not know.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { invitationsKey, listInvitations } from "@/components/invitations/invitations-api";

export function InvitationNotice() {
  const invitations = useQuery({ queryKey: invitationsKey, queryFn: listInvitations });
  const waiting = invitations.data ?? [];
  if (waiting.length === 0) return null;
  return (
    <div
      role="status"
      className="mx-3 mb-2 space-y-1 rounded-lg border border-indigo-200 bg-indigo-50 px-2.5 py-2 text-xs text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-100"
      data-testid="invitation-notice"
    >
      <ul className="space-y-0.5">
        {waiting.map((invitation) => (
          <li key={invitation.conversationId} className="break-words" data-testid="invitation-notice-item">
            {invitation.invitedBy} invited you to{" "}
            <span className="font-medium">{invitation.title || "an untitled conversation"}</span>
          </li>
        ))}
      </ul>
      <Link href="/invitations" className="font-medium underline" data-testid="invitation-notice-link">
        {waiting.length === 1 ? "Accept or decline" : `Answer ${waiting.length} invitations`}
      </Link>
    </div>
  );
}
