import { InvitationList } from "@/components/invitations/invitation-list";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function InvitationsPage() {
  await requirePageUser();
  return <InvitationList />;
}
