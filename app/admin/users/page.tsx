import { UserManager } from "@/components/admin/user-manager";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function AdminUsersPage() {
  const user = await requirePageUser();
  return <UserManager currentUserId={user.id} />;
}
