// Search over the conversations a user may read (owner, or participant other than "invited"): their titles and
// the text of their messages. Words go through Postgres full-text search on the GIN indexes of migration 0003
// (every word a prefix, so a search finds words as they are typed); a query too short to be words, or only stop
// words, falls back to a literal case-insensitive substring match. Message hits carry a snippet as segments, the
// matched words flagged, never HTML: the client renders them as text.

import "server-only";
import { and, desc, eq, ilike, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import { conversationListColumns, readableBy } from "./conversation-queries";
import type { UserArgs } from "./query-parts";
import { conversations, messageSearchVector, messages, titleSearchVector } from "./schema";

export interface SnippetSegment {
  text: string;
  /** True for the words that matched the query. */
  highlight: boolean;
}

export interface MessageHit {
  messageId: string;
  authorName: string;
  authorType: "user" | "persona";
  createdAt: Date;
  snippet: SnippetSegment[];
}

export interface ConversationSearchResult {
  id: string;
  title: string;
  personaId: string;
  ownerId: string;
  visibility: "private" | "room";
  createdAt: Date;
  updatedAt: Date;
  titleMatch: boolean;
  /** The best matching messages, at most HITS_PER_CONVERSATION, best first. */
  hits: MessageHit[];
}

export interface SearchOutcome {
  /** "words": full-text search; "substring": the literal fallback. */
  mode: "words" | "substring";
  conversations: ConversationSearchResult[];
}

export const HITS_PER_CONVERSATION = 3;
const MAX_CONVERSATIONS = 50;
/** Queries shorter than this are matched as a substring: one or two letters are not a word to stem. */
const MIN_WORD_QUERY_CHARS = 3;
/** Characters of context either side of a substring hit. */
const SUBSTRING_CONTEXT_CHARS = 50;
// ts_headline marks matches with these; they are removed from the text first, so they cannot come from it.
const START_MARK = "\u0001";
const STOP_MARK = "\u0002";
/** Stands in for "<" while ts_headline runs (a fullwidth less-than sign in the text also comes back as "<"). */
const TAG_OPEN_STAND_IN = "\uFF1C";
const HEADLINE_OPTIONS = `StartSel=${START_MARK}, StopSel=${STOP_MARK}, MaxWords=24, MinWords=10, MaxFragments=2, FragmentDelimiter=" … "`;

/** A message's text parts joined, without the headline marks. */
const messageText = sql<string>`(select replace(replace(coalesce(string_agg(part->>'text', ' '), ''), chr(1), ''), chr(2), '') from jsonb_array_elements(${messages.parts}) as part where part->>'type' = 'text')`;

/** The user's characters, matched literally by ILIKE: LIKE's wildcards and escape character are escaped. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/** "Every word, as a prefix": the words of the query, letters and digits only, so nothing needs escaping. */
export function prefixQuery(query: string): string | null {
  // Single letters are not words worth stemming ("C#", "f P"): such queries are matched as typed.
  const words = (query.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length >= 2);
  if (query.trim().length < MIN_WORD_QUERY_CHARS || words.length === 0) return null;
  return words.map((word) => `${word.toLowerCase()}:*`).join(" & ");
}

export async function searchConversations({
  db,
  userId,
  query,
}: UserArgs & { query: string }): Promise<SearchOutcome> {
  const readable = readableBy(db, userId);

  const words = prefixQuery(query);
  // Only stop words ("the", "and") make an empty tsquery, which matches nothing: search the letters instead.
  const tsquery = words ? await nonEmptyTsquery(db, words) : null;
  return tsquery
    ? { mode: "words", conversations: await searchWords(db, readable, tsquery, query.trim()) }
    : { mode: "substring", conversations: await searchSubstring(db, readable, query.trim()) };
}

async function nonEmptyTsquery(db: Database, words: string): Promise<string | null> {
  const [row] = await db
    .select({ empty: sql<boolean>`numnode(to_tsquery('english', ${words})) = 0` })
    .from(sql`(select 1) as one`);
  return row.empty ? null : words;
}

/** The messages a search looks at: the chosen path's, by people and personas. */
const shownMessages = and(eq(messages.chosen, true), inArray(messages.authorType, ["user", "persona"]));

/** A message hit's columns, named for the subquery that ranks the hits of each conversation. */
function hitColumns() {
  return {
    messageId: sql<string>`${messages.id}`.as("messageId"),
    conversationId: sql<string>`${messages.conversationId}`.as("conversationId"),
    authorName: sql<string>`${messages.authorName}`.as("authorName"),
    authorType: sql<"user" | "persona">`${messages.authorType}`.as("authorType"),
    createdAt: sql<string>`${messages.createdAt}`.as("createdAt"),
    text: messageText.as("text"),
  };
}

function toHit(
  row: {
    conversationId: string;
    messageId: string;
    authorName: string;
    authorType: "user" | "persona";
    createdAt: string;
  },
  snippet: SnippetSegment[],
): { conversationId: string; hit: MessageHit } {
  const { conversationId, messageId, authorName, authorType, createdAt } = row;
  return {
    conversationId,
    hit: { messageId, authorName, authorType, createdAt: new Date(createdAt), snippet },
  };
}

async function searchWords(db: Database, readable: SQL, words: string, query: string) {
  const tsquery = sql`to_tsquery('english', ${words})`;
  const vector = messageSearchVector(messages.parts);
  const rank = sql`ts_rank(${vector}, ${tsquery})`;
  const ranked = db
    .select({
      ...hitColumns(),
      rank: sql<number>`${rank}`.as("rank"),
      position:
        sql<number>`row_number() over (partition by ${messages.conversationId} order by ${rank} desc, ${messages.seq} desc)`.as(
          "position",
        ),
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(readable, shownMessages, sql`${vector} @@ ${tsquery}`))
    .as("ranked");
  const hitRows = await db
    .select({
      messageId: ranked.messageId,
      conversationId: ranked.conversationId,
      authorName: ranked.authorName,
      authorType: ranked.authorType,
      createdAt: ranked.createdAt,
      // ts_headline drops whatever its parser takes for an HTML tag: "<" is swapped for a look-alike first and
      // back in headlineSegments, so "<div>" in a message shows in its snippet as typed.
      headline: sql<string>`ts_headline('english', replace(${ranked.text}, '<', chr(${TAG_OPEN_STAND_IN.codePointAt(0)})), ${tsquery}, ${HEADLINE_OPTIONS})`,
    })
    .from(ranked)
    .where(lte(ranked.position, HITS_PER_CONVERSATION))
    .orderBy(desc(ranked.rank))
    .limit(MAX_CONVERSATIONS * HITS_PER_CONVERSATION);
  const hits = hitRows.map((row) => toHit(row, headlineSegments(row.headline)));
  // A title also matches literally: "c++" or half a word in a title is still found.
  const titleMatches = or(
    sql`${titleSearchVector(conversations.title)} @@ ${tsquery}`,
    ilike(conversations.title, likePattern(query)),
  ) as SQL;
  return collect(db, readable, titleMatches, hits);
}

async function searchSubstring(db: Database, readable: SQL, needle: string) {
  const pattern = likePattern(needle);
  const matches = sql`exists (select 1 from jsonb_array_elements(${messages.parts}) as part where part->>'type' = 'text' and part->>'text' ilike ${pattern})`;
  const ranked = db
    .select({
      ...hitColumns(),
      position:
        sql<number>`row_number() over (partition by ${messages.conversationId} order by ${messages.seq} desc)`.as(
          "position",
        ),
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(readable, shownMessages, matches))
    .as("ranked");
  const hitRows = await db
    .select()
    .from(ranked)
    .where(lte(ranked.position, HITS_PER_CONVERSATION))
    .orderBy(desc(ranked.createdAt))
    .limit(MAX_CONVERSATIONS * HITS_PER_CONVERSATION);
  const hits = hitRows.map((row) => toHit(row, substringSegments(row.text, needle)));
  return collect(db, readable, ilike(conversations.title, pattern), hits);
}

/** The conversations with a title match or a message hit, most recently active first. */
async function collect(
  db: Database,
  readable: SQL,
  titleMatches: SQL,
  hits: Array<{ conversationId: string; hit: MessageHit }>,
): Promise<ConversationSearchResult[]> {
  const hitIds = [...new Set(hits.map((entry) => entry.conversationId))];
  const rows = await db
    .select({
      ...conversationListColumns,
      titleMatch: sql<boolean>`${titleMatches}`,
    })
    .from(conversations)
    .where(
      and(readable, hitIds.length > 0 ? or(titleMatches, inArray(conversations.id, hitIds)) : titleMatches),
    )
    .orderBy(desc(conversations.updatedAt))
    .limit(MAX_CONVERSATIONS);
  return rows.map((row) => ({
    ...row,
    titleMatch: Boolean(row.titleMatch),
    hits: hits.filter((entry) => entry.conversationId === row.id).map((entry) => entry.hit),
  }));
}

/** ts_headline's output, marked with START_MARK/STOP_MARK, as segments on one line. */
export function headlineSegments(headline: string): SnippetSegment[] {
  const segments: SnippetSegment[] = [];
  const flat = headline.replace(/\s+/g, " ").trim().replaceAll(TAG_OPEN_STAND_IN, "<");
  for (const [index, piece] of flat.split(START_MARK).entries()) {
    if (index === 0) {
      push(segments, piece, false);
      continue;
    }
    const stop = piece.indexOf(STOP_MARK);
    if (stop < 0) {
      push(segments, piece, false);
      continue;
    }
    push(segments, piece.slice(0, stop), true);
    push(segments, piece.slice(stop + 1), false);
  }
  return segments;
}

/** The text around the first case-insensitive occurrence of `needle`, that occurrence flagged. */
export function substringSegments(text: string, needle: string): SnippetSegment[] {
  const flat = text.replace(/\s+/g, " ").trim();
  const at = flat.toLowerCase().indexOf(needle.toLowerCase());
  if (at < 0) return [{ text: flat.slice(0, SUBSTRING_CONTEXT_CHARS * 2), highlight: false }];
  const from = Math.max(0, at - SUBSTRING_CONTEXT_CHARS);
  const to = Math.min(flat.length, at + needle.length + SUBSTRING_CONTEXT_CHARS);
  const segments: SnippetSegment[] = [];
  push(segments, `${from > 0 ? "…" : ""}${flat.slice(from, at)}`, false);
  push(segments, flat.slice(at, at + needle.length), true);
  push(segments, `${flat.slice(at + needle.length, to)}${to < flat.length ? "…" : ""}`, false);
  return segments;
}

function push(segments: SnippetSegment[], text: string, highlight: boolean) {
  const cleaned = text.replaceAll(STOP_MARK, "").replaceAll(START_MARK, "");
  if (cleaned === "") return;
  const last = segments.at(-1);
  if (last && last.highlight === highlight) last.text += cleaned;
  else segments.push({ text: cleaned, highlight });
}
