"use client";
// The conversation list: search over titles and message text (message hits with their snippets, each opening the
// conversation at that message), new, rename inline, delete with a confirm; the account and theme below.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { Suspense, useState } from "react";
import { ConversationSelectList } from "@/components/lab/conversation-select-list";
import { IconButton } from "@/components/ui/icon-button";
import { CloseIcon, LogOutIcon, LogoIcon, PlusIcon, SearchIcon } from "@/components/ui/icons";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { Tooltip } from "@/components/ui/tooltip";
import { authClient } from "@/lib/auth-client";
import {
  type ConversationSearchResult,
  type ConversationSummary,
  conversationsKey,
  listConversations,
  searchConversations,
} from "./api";
import { useChatShell } from "./chat-shell";
import { ConversationListItem } from "./conversation-list-item";
import { InvitationNotice } from "./invitation-notice";
import { RevealLinkedMessage } from "./reveal-linked-message";
import { SearchHits } from "./search-hits";
import { useDebouncedValue } from "./use-debounced-value";
import { useGeneratedTitleRefresh } from "./use-generated-title-refresh";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Today / Yesterday / Previous 7 days / Older, by last activity. */
function groupByRecency<Item extends ConversationSummary>(
  conversations: Item[],
): { label: string; items: Item[] }[] {
  const startOfToday = new Date();
  startOfToday.setHours(0, 0, 0, 0);
  const groups = new Map<string, Item[]>();
  for (const conversation of conversations) {
    const updated = new Date(conversation.updatedAt).getTime();
    const label =
      updated >= startOfToday.getTime()
        ? "Today"
        : updated >= startOfToday.getTime() - DAY_MS
          ? "Yesterday"
          : updated >= startOfToday.getTime() - 7 * DAY_MS
            ? "Previous 7 days"
            : "Older";
    groups.set(label, [...(groups.get(label) ?? []), conversation]);
  }
  return [...groups].map(([label, items]) => ({ label, items }));
}

export function ConversationSidebar({
  userId,
  userName,
  isAdmin,
}: {
  userId: string;
  userName: string;
  isAdmin: boolean;
}) {
  const params = useParams<{ id?: string }>();
  const [search, setSearch] = useState("");
  const query = useDebouncedValue(search.trim(), 200);
  const { data, isLoading, isFetching, error } = useQuery({
    queryKey: [...conversationsKey, query],
    // A search also matches message text (GET /api/search); without one, the plain list.
    queryFn: (): Promise<{
      conversations: Array<ConversationSummary & Partial<ConversationSearchResult>>;
    }> => (query ? searchConversations(query) : listConversations("")),
    placeholderData: keepPreviousData,
  });

  const conversations = data?.conversations ?? [];
  // Select mode: checkboxes instead of links, to save the ticked conversations as a dataset (docs/lab.md).
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  useGeneratedTitleRefresh(conversations.find((conversation) => conversation.id === params.id));
  return (
    <aside
      className="flex h-full w-full flex-col border-r border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="sidebar"
      aria-label="Conversations"
    >
      <Suspense fallback={null}>
        <RevealLinkedMessage />
      </Suspense>
      <SidebarHeader />
      <div className="px-3 pb-2">
        <label className="relative block">
          <span className="sr-only">Search conversation titles and messages</span>
          <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-zinc-400" />
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search conversations"
            maxLength={200}
            className="block w-full rounded-lg border border-zinc-200 bg-white py-1.5 pr-2 pl-8 text-sm outline-none placeholder:text-zinc-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 dark:border-zinc-700 dark:bg-zinc-900"
            data-testid="conversation-search"
          />
        </label>
      </div>
      <div className="flex justify-end px-3 pb-1">
        <button
          type="button"
          className="text-xs text-indigo-700 hover:underline dark:text-indigo-300"
          onClick={() => setChosen(chosen ? null : new Set())}
          aria-pressed={chosen !== null}
          data-testid="sidebar-select"
        >
          {chosen ? "Done selecting" : "Select"}
        </button>
      </div>
      <InvitationNotice />
      <nav
        className="scrollbar-thin flex-1 overflow-y-auto px-2 pb-2"
        data-testid="conversation-list"
        data-loading={isLoading || isFetching || undefined}
        aria-busy={isFetching}
      >
        {isLoading && <p className="px-2 py-1 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>}
        {error && <p className="px-2 py-1 text-sm text-red-700 dark:text-red-300">{error.message}</p>}
        {!isLoading && conversations.length === 0 && (
          <p
            className="px-2 py-1 text-sm text-zinc-500 dark:text-zinc-400"
            data-testid="conversation-list-empty"
          >
            {query ? `No titles or messages match “${query}”.` : "No conversations yet."}
          </p>
        )}
        {chosen ? (
          <ConversationSelectList conversations={conversations} chosen={chosen} onChange={setChosen} />
        ) : (
          <ConversationGroups conversations={conversations} userId={userId} activeId={params.id} />
        )}
      </nav>
      <AccountFooter userName={userName} isAdmin={isAdmin} />
    </aside>
  );
}

/** The logo, a new conversation, and (on small screens) closing the sidebar. */
function SidebarHeader() {
  const { closeSidebar } = useChatShell();
  return (
    <div className="flex items-center justify-between gap-2 px-3 pt-3 pb-2">
      <Link href="/chat" className="flex items-center gap-2 font-semibold tracking-tight">
        <LogoIcon size={20} className="text-indigo-600 dark:text-indigo-400" />
        Glassbox
      </Link>
      <div className="flex items-center gap-1">
        <Tooltip content="New conversation">
          <Link
            href="/chat"
            className="icon-button"
            aria-label="New conversation"
            data-testid="sidebar-new-conversation"
          >
            <PlusIcon />
          </Link>
        </Tooltip>
        <IconButton label="Close sidebar" onClick={closeSidebar} testId="close-sidebar" className="md:hidden">
          <CloseIcon />
        </IconButton>
      </div>
    </div>
  );
}

/** The conversations grouped by last activity, each with its message hits when searching. */
function ConversationGroups({
  conversations,
  userId,
  activeId,
}: {
  conversations: Array<ConversationSummary & Partial<ConversationSearchResult>>;
  userId: string;
  activeId: string | undefined;
}) {
  return groupByRecency(conversations).map((group) => (
    <section key={group.label} className="mt-2 first:mt-0">
      <h2 className="px-2 pt-1 pb-1 text-[11px] font-medium text-zinc-500 dark:text-zinc-400">
        {group.label}
      </h2>
      <ul className="space-y-px">
        {group.items.map((conversation) => (
          <ConversationListItem
            key={conversation.id}
            conversation={conversation}
            active={activeId === conversation.id}
            canEdit={conversation.ownerId === userId}
          >
            {conversation.hits && (
              <SearchHits
                conversationId={conversation.id}
                hits={conversation.hits}
                activeConversationId={activeId}
              />
            )}
          </ConversationListItem>
        ))}
      </ul>
    </section>
  ));
}

/** The reader's name, theme, signing out, and their own pages. */
function AccountFooter({ userName, isAdmin }: { userName: string; isAdmin: boolean }) {
  const router = useRouter();
  async function signOut() {
    await authClient.signOut();
    router.push("/sign-in");
    router.refresh();
  }

  return (
    <div className="space-y-1.5 border-t border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
      <div className="flex items-center gap-1">
        <span className="flex min-w-0 flex-1 items-center gap-2">
          <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
            {userName.slice(0, 1).toUpperCase()}
          </span>
          <span className="truncate" data-testid="user-name">
            {userName}
          </span>
        </span>
        <ThemeToggle />
        <IconButton label="Sign out" onClick={signOut} testId="sign-out">
          <LogOutIcon />
        </IconButton>
      </div>
      {/* The reader's own pages wrap onto lines of their own: none is ever pushed out of reach. */}
      <nav aria-label="Your pages" className="flex flex-wrap gap-1">
        <Link
          href="/invitations"
          className="chip bg-zinc-100 text-zinc-700 hover:underline dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="invitations-link"
          title="Rooms you were invited to: accept or decline"
        >
          invitations
        </Link>
        <Link
          href="/settings/memories"
          className="chip bg-zinc-100 text-zinc-700 hover:underline dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="memories-link"
          title="What the personas remember about you: see, correct, delete"
        >
          memories
        </Link>
        <Link
          href="/settings/api-keys"
          className="chip bg-zinc-100 text-zinc-700 hover:underline dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="api-keys-link"
          title="Keys for OpenAI-compatible clients to talk to the personas"
        >
          API keys
        </Link>
        <Link
          href="/datasets"
          className="chip bg-zinc-100 text-zinc-700 hover:underline dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="datasets-link"
          title="Datasets of conversations, and experiments that try a change on them"
        >
          datasets
        </Link>
        <Link
          href="/attempts"
          className="chip bg-zinc-100 text-zinc-700 hover:underline dark:bg-zinc-800 dark:text-zinc-200"
          data-testid="attempts-link"
          title="Find model calls across your conversations"
        >
          calls
        </Link>
        {isAdmin && (
          <Link
            href="/admin"
            className="chip bg-indigo-100 text-indigo-700 hover:underline dark:bg-indigo-950 dark:text-indigo-300"
            data-testid="admin-link"
          >
            admin
          </Link>
        )}
      </nav>
    </div>
  );
}
