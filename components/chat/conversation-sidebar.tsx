"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { authClient } from "@/lib/auth-client";
import { type ConversationSummary, conversationsKey, fetchJson } from "./api";
import { NewConversationButton } from "./new-conversation-button";

export function ConversationSidebar({ userName, isAdmin }: { userName: string; isAdmin: boolean }) {
  const router = useRouter();
  const params = useParams<{ id?: string }>();
  const { data, isLoading } = useQuery({
    queryKey: conversationsKey,
    queryFn: () => fetchJson<{ conversations: ConversationSummary[] }>("/api/conversations"),
  });

  async function signOut() {
    await authClient.signOut();
    router.push("/sign-in");
    router.refresh();
  }

  return (
    <aside className="hidden w-64 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50 md:flex dark:border-zinc-800 dark:bg-zinc-900" data-testid="sidebar">
      <div className="flex items-center justify-between p-3">
        <Link href="/chat" className="font-semibold">
          Glassbox
        </Link>
        <NewConversationButton className="button-ghost" />
      </div>
      <nav className="flex-1 overflow-y-auto px-2" data-testid="conversation-list">
        {isLoading && <p className="px-2 text-sm text-zinc-500">Loading…</p>}
        {data?.conversations.map((conversation) => (
          <Link
            key={conversation.id}
            href={`/chat/${conversation.id}`}
            data-testid="conversation-link"
            className={`block truncate rounded-lg px-2 py-1.5 text-sm ${
              params.id === conversation.id ? "bg-zinc-200 dark:bg-zinc-800" : "hover:bg-zinc-100 dark:hover:bg-zinc-800/60"
            }`}
          >
            {conversation.title}
          </Link>
        ))}
      </nav>
      <div className="flex items-center justify-between border-t border-zinc-200 p-3 text-sm dark:border-zinc-800">
        <span className="truncate" data-testid="user-name">
          {userName}
          {isAdmin && <span className="ml-1 rounded bg-indigo-100 px-1 text-xs text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200">admin</span>}
        </span>
        <button type="button" onClick={signOut} className="button-ghost" data-testid="sign-out">
          Sign out
        </button>
      </div>
    </aside>
  );
}
