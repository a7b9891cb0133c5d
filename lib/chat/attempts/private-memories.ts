// Private memories in stored attempts (docs/features.md#private-memories). An attempt made while its
// conversation was private may carry its owner's user and user × persona memories in the CORE MEMORIES system
// item and so in the raw request body. Once someone else can read the conversation (a room), every view of that
// attempt for a reader other than the memory's owner replaces the memory's text with a placeholder, in the items,
// the trace and every request body, and says how many were replaced and whose they are. The owner still reads the
// exact bytes. An attempt that sends another's payload again (a replay) carries the source's recorded memories,
// so it is never more visible than its source.

import "server-only";
import type { PrivateMemoryUse } from "@/db/attempt-records";
import type { Database } from "@/db/client";
import { listPrivateMemoryCandidates, listUserNames } from "@/db/private-memory-queries";
import type { Attempt } from "@/db/schema";
import { coreMemoriesText } from "@/lib/context/system-prompt";

export interface PrivateMemoryRedaction {
  count: number;
  owners: { userId: string; name: string }[];
  /** What the inspector shows, e.g. "2 private memories redacted; visible only to Ada". */
  notice: string;
}

type Candidate = { id: string; userId: string | null; content: string };

/**
 * The private memories a payload carries: the candidates whose line (as `coreMemoriesText` writes it) is in the
 * CORE MEMORIES item. Called when an attempt is recorded, so the attempt keeps the texts it sent even if the
 * memory is later edited or deleted. No query unless the payload has that item.
 */
export async function privateMemoriesInPayload({
  db,
  conversationId,
  turnId,
  items,
}: {
  db: Database;
  conversationId: string;
  /** Null for a call that answers no turn (a summary, a title, a draft). */
  turnId: string | null;
  items: readonly unknown[];
}): Promise<PrivateMemoryUse[]> {
  const texts = coreMemoryTexts(items);
  if (texts.length === 0) return [];
  const candidates = await listPrivateMemoryCandidates({
    db,
    conversationIds: [conversationId],
    turnIds: turnId ? [turnId] : [],
  });
  return usesIn(texts, candidates);
}

/**
 * The private memories an attempt derived from `source` carries when it holds the source's payload (its items and
 * last body, as a replay that resends it does, or an imported copy of it): the source's recorded list, unchanged,
 * so every reader gets the derived attempt redacted as they get the source, however the memories were edited or
 * deleted since. A source recorded before the lists were kept (null) gets the list its views are redacted by now:
 * its conversation's owner's and its turn's author's memories whose line its CORE MEMORIES item carries, so that
 * conversation (and turn) must already be in `db`. Store the result as the derived attempt's `privateMemories`: it
 * is never null, so later edits cannot un-redact it.
 */
export async function privateMemoriesOfSource({
  db,
  source,
}: {
  db: Database;
  source: AttemptPayloadRecord;
}): Promise<PrivateMemoryUse[]> {
  const [uses] = await recordedOrMatchedUses(db, [source]);
  return uses;
}

/** What an attempt's private memories are worked out from; a stored attempt row is one. */
export type AttemptPayloadRecord = Pick<Attempt, "conversationId" | "turnId" | "items" | "privateMemories">;

/**
 * Each attempt's private memories, in order: those it recorded, or for an attempt recorded before they were kept
 * (`privateMemories` null), its owners' memories now whose line its CORE MEMORIES item carries.
 */
async function recordedOrMatchedUses(
  db: Database,
  records: readonly AttemptPayloadRecord[],
): Promise<PrivateMemoryUse[][]> {
  const unrecorded = records.filter((record) => record.privateMemories === null);
  const candidates =
    unrecorded.length > 0
      ? await listPrivateMemoryCandidates({
          db,
          conversationIds: [...new Set(unrecorded.map((record) => record.conversationId))],
          turnIds: [...new Set(unrecorded.flatMap((record) => (record.turnId ? [record.turnId] : [])))],
        })
      : [];
  return records.map((record) => record.privateMemories ?? usesIn(coreMemoryTexts(record.items), candidates));
}

/**
 * The attempts as `readerId` may read them, with a redaction per attempt that had something replaced. Attempts
 * recorded before the uses were kept (`privateMemories` null) are matched against their owners' memories now.
 */
export async function redactPrivateMemories({
  db,
  readerId,
  attemptRows,
}: {
  db: Database;
  readerId: string;
  attemptRows: Attempt[];
}): Promise<{ rows: Attempt[]; redactions: Map<string, PrivateMemoryRedaction> }> {
  const usesPerAttempt = await recordedOrMatchedUses(db, attemptRows);
  const usesByAttempt = new Map(
    attemptRows.map((row, index) => [
      row.id,
      usesPerAttempt[index].filter((use) => use.ownerId !== readerId),
    ]),
  );
  const ownerIds = [...new Set([...usesByAttempt.values()].flat().map((use) => use.ownerId))];
  const names = await listUserNames({ db, userIds: ownerIds });
  const redactions = new Map<string, PrivateMemoryRedaction>();
  const rows = attemptRows.map((row) => {
    const uses = usesByAttempt.get(row.id) ?? [];
    if (uses.length === 0) return row;
    const replacements = uses.map((use) => {
      const name = names.get(use.ownerId) ?? "another user";
      return { line: memoryLine(use.content), replacement: memoryLine(placeholder(name)) };
    });
    const replaceIn = (text: string) =>
      replacements.reduce((result, { line, replacement }) => replaceLines(result, line, replacement), text);
    const owners = [...new Set(uses.map((use) => use.ownerId))].map((userId) => ({
      userId,
      name: names.get(userId) ?? "another user",
    }));
    const count = new Set(uses.map((use) => use.memoryId)).size;
    const ownerNames = owners.map((owner) => owner.name).join(" and ");
    redactions.set(row.id, {
      count,
      owners,
      notice: `${plural(count)} redacted; visible only to ${ownerNames}`,
    });
    return {
      ...row,
      items: row.items.map((item) => {
        const redacted = mapStrings(item, replaceIn);
        return JSON.stringify(redacted) === JSON.stringify(item)
          ? item
          : { ...(redacted as object), redacted: true };
      }),
      trace: mapStrings(row.trace, replaceIn) as unknown[],
      requests: row.requests.map((request) => ({
        ...request,
        body: redactBody(request.body, replacements),
        ...(request.wire ? { wire: mapStrings(request.wire, replaceIn) as typeof request.wire } : {}),
      })),
    };
  });
  return { rows, redactions };
}

export function placeholder(ownerName: string): string {
  return `[private memory of ${ownerName} — only ${ownerName} can see it]`;
}

function plural(count: number): string {
  return count === 1 ? "1 private memory" : `${count} private memories`;
}

/** One memory as `coreMemoriesText` writes it. */
function memoryLine(content: string): string {
  return (
    coreMemoriesText([{ id: "", area: "fact", content }])
      ?.split("\n")
      .slice(1)
      .join("\n") ?? ""
  );
}

/** The texts of the payload's CORE MEMORIES items, where private memories are written. */
function coreMemoryTexts(items: readonly unknown[]): string[] {
  return items.flatMap((item) => {
    const { tag, parts } = item as { tag?: string; parts?: { type: string; text?: string }[] };
    if (tag !== "CORE_MEMORIES" || !Array.isArray(parts)) return [];
    return parts.flatMap((part) =>
      part.type === "text" && typeof part.text === "string" ? [part.text] : [],
    );
  });
}

function usesIn(texts: string[], candidates: Candidate[]): PrivateMemoryUse[] {
  return candidates.flatMap((candidate) =>
    candidate.userId !== null &&
    candidate.content.trim() !== "" &&
    texts.some((text) => indexOfLine(text, memoryLine(candidate.content), 0) !== -1)
      ? [{ memoryId: candidate.id, ownerId: candidate.userId, content: candidate.content }]
      : [],
  );
}

/** Where `line` occurs as whole lines of `text` (at the start or after a newline, ending at a newline or the end). */
function indexOfLine(text: string, line: string, from: number): number {
  for (let at = text.indexOf(line, from); at !== -1; at = text.indexOf(line, at + 1)) {
    const end = at + line.length;
    if ((at === 0 || text[at - 1] === "\n") && (end === text.length || text[end] === "\n")) return at;
  }
  return -1;
}

function replaceLines(text: string, line: string, replacement: string): string {
  let result = "";
  let from = 0;
  for (let at = indexOfLine(text, line, 0); at !== -1; at = indexOfLine(text, line, from)) {
    result += text.slice(from, at) + replacement;
    from = at + line.length;
  }
  return result + text.slice(from);
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((entry) => mapStrings(entry, map));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, mapStrings(entry, map)]));
  return value;
}

/**
 * A request body with the memories replaced inside its string values. Provider bodies are compact JSON, which
 * parses and prints back to the same bytes; anything else has the lines' JSON-escaped form replaced as text.
 */
function redactBody(body: string, replacements: { line: string; replacement: string }[]): string {
  const replaceIn = (text: string) =>
    replacements.reduce((result, { line, replacement }) => replaceLines(result, line, replacement), text);
  try {
    const parsed: unknown = JSON.parse(body);
    if (JSON.stringify(parsed) === body) return JSON.stringify(mapStrings(parsed, replaceIn));
  } catch {
    // not JSON: replaced as text below
  }
  return replacements.reduce(
    (result, { line, replacement }) =>
      result.split(JSON.stringify(line).slice(1, -1)).join(JSON.stringify(replacement).slice(1, -1)),
    body,
  );
}
