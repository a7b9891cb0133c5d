"use client";
// A conversation's message hits under its entry in the sidebar's search results: who wrote it and a snippet with
// the matched words marked. Segments are rendered as text (React escapes them); only <mark> comes from us.
// Following a hit opens the conversation at that message (?message=<id>, picked up by RevealLinkedMessage).
import Link from "next/link";
import type { SearchMessageHit, SnippetSegment } from "./api";
import { revealMessage } from "./reveal-message";

export function HighlightedSnippet({ segments }: { segments: SnippetSegment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.highlight ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are static text in a fixed order
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-zinc-900 dark:bg-amber-400/80">
            {segment.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are static text in a fixed order
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}

export function SearchHits({
  conversationId,
  hits,
  activeConversationId,
}: {
  conversationId: string;
  hits: SearchMessageHit[];
  activeConversationId: string | undefined;
}) {
  if (hits.length === 0) return null;
  return (
    <ul className="mt-px mb-1 ml-2 space-y-px border-l border-zinc-200 pl-2 dark:border-zinc-700">
      {hits.map((hit) => (
        <li key={hit.messageId}>
          <Link
            href={`/chat/${conversationId}?message=${hit.messageId}`}
            onClick={() => {
              // Already open at this address: the URL does not change, so reveal it here.
              if (activeConversationId === conversationId)
                requestAnimationFrame(() => revealMessage(hit.messageId));
            }}
            className="block rounded-md px-2 py-1 text-xs leading-snug text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800/50"
            data-testid="search-hit"
            data-message-id={hit.messageId}
          >
            <span className="font-medium text-zinc-800 dark:text-zinc-100">{hit.authorName}: </span>
            <span className="line-clamp-2" data-testid="search-hit-snippet">
              <HighlightedSnippet segments={hit.snippet} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
