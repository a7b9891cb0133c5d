"use client";
// The invitations waiting for the signed-in user: a conversation's owner asked them in; accepting makes them a
// member (they can read and write there), declining removes the invitation. Nothing is shared before they accept.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { apiFetch } from "@/components/ui/api-client";

interface Invitation {
  conversationId: string;
  title: string | null;
  invitedBy: string;
  invitedAt: string;
}

const invitationsKey = ["invitations"] as const;

export function InvitationList() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: async () => (await apiFetch<{ invitations: Invitation[] }>("/api/invitations")).invitations,
  });
  const self = async () => (await apiFetch<{ user: { id: string } }>("/api/auth/get-session")).user.id;
  const accept = useMutation({
    mutationFn: async (conversationId: string) => {
      const userId = await self();
      await apiFetch(`/api/conversations/${conversationId}/participants/${encodeURIComponent(userId)}`, {
        method: "PATCH",
        body: { status: "accepted" },
      });
      return conversationId;
    },
    onSuccess: async (conversationId) => {
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
      await queryClient.invalidateQueries({ queryKey: ["conversations"] });
      router.push(`/chat/${conversationId}`);
    },
  });
  const decline = useMutation({
    mutationFn: async (conversationId: string) => {
      const userId = await self();
      await apiFetch(`/api/conversations/${conversationId}/participants/${encodeURIComponent(userId)}`, {
        method: "DELETE",
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKey }),
  });

  return (
    <main className="mx-auto max-w-xl space-y-4 p-6" data-testid="invitations">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Invitations</h1>
        <Link href="/chat" className="text-sm underline">
          Back to the chat
        </Link>
      </div>
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
            <button
              type="button"
              className="button-primary"
              disabled={accept.isPending}
              onClick={() => accept.mutate(invitation.conversationId)}
              data-testid="accept-invitation"
            >
              Accept
            </button>
            <button
              type="button"
              className="button-secondary"
              disabled={decline.isPending}
              onClick={() => decline.mutate(invitation.conversationId)}
              data-testid="decline-invitation"
            >
              Decline
            </button>
          </li>
        ))}
      </ul>
      {(accept.error ?? decline.error ?? invitations.error) && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {(accept.error ?? decline.error ?? invitations.error)?.message}
        </p>
      )}
    </main>
  );
}
