// The signed-in user's waiting invitations (GET /api/invitations): the invitations page and the sidebar's notice
// read them under one query key, so answering one on the page updates the notice too.
import { apiFetch } from "@/components/ui/api-client";

export interface Invitation {
  conversationId: string;
  title: string | null;
  invitedBy: string;
  invitedAt: string;
}

export const invitationsKey = ["invitations"] as const;

export async function listInvitations(): Promise<Invitation[]> {
  return (await apiFetch<{ invitations: Invitation[] }>("/api/invitations")).invitations;
}
