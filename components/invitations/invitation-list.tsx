"use client";
// The invitations waiting for the signed-in user: a conversation's owner asked them in; accepting makes them a
// member (they can read and write there), declining removes the invitation. Nothing is shared before they accept.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { apiFetch } from "@/components/ui/api-client";
import { PageHeading } from "@/components/ui/page-heading";
import { invitationsKey, listInvitations } from "./invitations-api";

type Choice = "accept" | "decline";
const CHOICES: Array<{ choice: Choice; label: string; className: string }> = [
  { choice: "accept", label: "Accept", className: "button-primary" },
  { choice: "decline", label: "Decline", className: "button-secondary" },
];

export function InvitationList() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: listInvitations,
  });
  const self = async () => (await apiFetch<{ user: { id: string } }>("/api/auth/get-session")).user.id;
  const answer = useMutation({
    mutationFn: async ({ conversationId, choice }: { conversationId: string; choice: Choice }) => {
      const userId = await self();
      const url = `/api/conversations/${conversationId}/participants/${encodeURIComponent(userId)}`;
      if (choice === "accept") await apiFetch(url, { method: "PATCH", body: { status: "accepted" } });
      else await apiFetch(url, { method: "DELETE" });
    },
    onSuccess: async (_, { conversationId, choice }) => {
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
      if (choice === "decline") return;
      await queryClient.invalidateQueries({ queryKey: ["conversations"] });
      router.push(`/chat/${conversationId}`);
    },
  });

  return (
    <main className="mx-auto max-w-xl space-y-4 p-6" data-testid="invitations">
      <PageHeading title="Invitations" />
      {invitations.isPending && <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>}
      {invitations.data?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-invitations">
          No invitations are waiting for you.
        </p>
      )}
      <ul className="space-y-2">
        {invitations.data?.map((invitation) => (
          <li
            key={invitation.conversationId}
            className="flex items-center gap-3 rounded-xl border border-zinc-200 p-3 dark:border-zinc-800"
            data-testid="invitation"
          >
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{invitation.title || "Untitled conversation"}</p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{invitation.invitedBy} invited you</p>
            </div>
            {CHOICES.map(({ choice, label, className }) => (
              <button
                key={choice}
                type="button"
                className={className}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ conversationId: invitation.conversationId, choice })}
                data-testid={`${choice}-invitation`}
              >
                {label}
              </button>
            ))}
          </li>
        ))}
      </ul>
      {(answer.error ?? invitations.error) && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {(answer.error ?? invitations.error)?.message}
        </p>
      )}
    </main>
  );
}
