import type { ReactNode } from "react";
import { ChatShell } from "@/components/chat/chat-shell";
import { ConversationSidebar } from "@/components/chat/conversation-sidebar";
import { CurrentUserProvider } from "@/components/ui/current-user";
import { requirePageUser } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function ChatLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  return (
    <CurrentUserProvider userId={user.id}>
      <ChatShell
        sidebar={
          <ConversationSidebar userId={user.id} userName={user.name} isAdmin={user.role === "admin"} />
        }
      >
        {children}
      </ChatShell>
    </CurrentUserProvider>
  );
}
