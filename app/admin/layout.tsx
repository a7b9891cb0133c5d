import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

/** Admins only: anyone else signed in goes back to the chat (and the API refuses them with 403 anyway). */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  if (user.role !== "admin") redirect("/chat");
  return (
    <div className="flex h-full flex-col">
      <AdminNav />
      <main
        className="mx-auto w-full max-w-7xl flex-1 overflow-y-auto p-4"
        id="main-content"
        data-testid="admin-main"
      >
        {children}
      </main>
    </div>
  );
}
