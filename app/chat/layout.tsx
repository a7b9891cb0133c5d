import type { ReactNode } from "react";
import { ConversationSidebar } from "@/components/chat/conversation-sidebar";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  return (
    <div className="flex h-full">
      <ConversationSidebar userName={user.name} isAdmin={user.role === "admin"} />
      <div className="flex min-w-0 flex-1 flex-col">{children}</div>
    </div>
  );
}
