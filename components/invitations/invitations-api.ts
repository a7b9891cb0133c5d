// The signed-in user's waiting invitations (GET /api/invitations): the invitations page and the sidebar's notice
// read them under one query key, so answering one on the page updates the notice too.
import { apiFetch } from "@/components/ui/api-client";
import type { ApiOutput } from "@/lib/api/responses";

type Invitations = ApiOutput<"GET /api/invitations">;
export type Invitation = Invitations["invitations"][number];

export const invitationsKey = ["invitations"] as const;

export async function listInvitations(): Promise<Invitation[]> {
  return (await apiFetch<Invitations>("/api/invitations")).invitations;
}
