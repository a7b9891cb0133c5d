import { describe, expect, it } from "vitest";
import type { StoredMessage } from "@/lib/domain/types";
import {
  BOB,
  blockRecord,
  deepFreeze,
  MALLORY,
  NOW,
  PERSONA,
  personaMessage,
  userMessage,
} from "@/tests/context/fixtures";
import { collapseRuns } from "./collapse-runs";
import {
  activeBlocksFor,
  applyPersonaUserBlocks,
  blockedRunNoticeText,
  isBlockActive,
  isMuted,
  personaUserBlocksCardText,
} from "./persona-user-blocks";

function run(messages: StoredMessage[], blocks = [blockRecord()]) {
  const { value: entries } = collapseRuns(deepFreeze(messages));
  return applyPersonaUserBlocks({
    entries,
    blocks: deepFreeze(blocks),
    personaId: PERSONA.id,
    personaName: PERSONA.name,
    now: NOW,
  });
}

const view = (entries: ReturnType<typeof run>["value"]["entries"]) =>
  entries.map((entry) =>
    entry.kind === "notice"
      ? `${entry.id}: ${entry.text}`
      : entry.messages.map((message) => message.id).join("+"),
  );

describe("persona user blocks", () => {
  it("replaces a run of a blocked user's messages with one notice", () => {
    const result = run([
      userMessage(1, "hi"),
      userMessage(2, "spam", { author: MALLORY }),
      userMessage(3, "pic", { author: MALLORY, media: ["i1"] }),
      userMessage(4, "more", { author: MALLORY }),
      personaMessage(5, "hello Ada"),
    ]);
    expect(view(result.value.entries)).toEqual([
      "m1",
      "blocked:m2: [System: 3 messages from Mallory hidden here: Mallory is blocked from Aria.]",
      "m5",
    ]);
    expect(result.trace).toEqual([
      {
        stage: "blocks",
        action: "blocked",
        reason: "3 messages of blocked user Mallory replaced by a notice",
        itemIds: ["blocked:m2"],
        messageIds: ["m2", "m3", "m4"],
        counts: { messages: 3 },
        details: { userId: MALLORY.userId },
      },
    ]);
  });

  it("gives one notice per run: separate runs get separate notices", () => {
    const result = run([
      userMessage(1, "a", { author: MALLORY }),
      userMessage(2, "b"),
      userMessage(3, "c", { author: MALLORY }),
    ]);
    expect(view(result.value.entries)).toEqual([
      "blocked:m1: [System: 1 message from Mallory hidden here: Mallory is blocked from Aria.]",
      "m2",
      "blocked:m3: [System: 1 message from Mallory hidden here: Mallory is blocked from Aria.]",
    ]);
    expect(result.trace).toHaveLength(2);
  });

  it("two different blocked users in a row get a notice each", () => {
    const result = run(
      [userMessage(1, "a", { author: MALLORY }), userMessage(2, "b", { author: BOB })],
      [blockRecord(), blockRecord({ userId: BOB.userId, userName: BOB.name })],
    );
    expect(view(result.value.entries).map((line) => `${line.split(":")[0]}:${line.split(":")[1]}`)).toEqual([
      "blocked:m1",
      "blocked:m2",
    ]);
  });

  it("drops the reply annotation of a reply quoting a hidden message", () => {
    const result = run([
      userMessage(1, "spam", { author: MALLORY }),
      userMessage(2, "look", { replyToMessageId: "m1", forwardedFromName: "Mallory", media: ["i1"] }),
    ]);
    const reply = result.value.entries[1];
    expect(reply?.kind === "message" && reply.messages[0]).toMatchObject({
      id: "m2",
      replyToMessageId: null,
      forwardedFromName: null,
    });
    expect(result.trace.map((event) => event.action)).toEqual(["blocked", "dropped-reply-annotation"]);
  });

  it.each([
    { name: "mute does not hide messages", blocks: [blockRecord({ blockType: "mute" })] },
    { name: "expired block is inactive", blocks: [blockRecord({ expiresAt: "2026-02-01T00:00:00.000Z" })] },
    { name: "another persona's block does not apply", blocks: [blockRecord({ personaId: "p-other" })] },
    { name: "no blocks", blocks: [] },
  ])("keeps everything and says nothing: $name", ({ blocks }) => {
    const result = run([userMessage(1, "a", { author: MALLORY }), personaMessage(2, "b")], blocks);
    expect(view(result.value.entries)).toEqual(["m1", "m2"]);
    expect(result.trace).toEqual([]);
  });

  it("isMuted: an active mute or block stops the user from triggering the persona", () => {
    const blocks = [
      blockRecord({ blockType: "mute", userId: "u1" }),
      blockRecord({ userId: "u2" }),
      blockRecord({ userId: "u3", expiresAt: "2026-01-01T00:00:00.000Z" }),
    ];
    expect(isMuted({ blocks, userId: "u1", now: NOW })).toBe(true);
    expect(isMuted({ blocks, userId: "u2", now: NOW })).toBe(true);
    expect(isMuted({ blocks, userId: "u3", now: NOW })).toBe(false);
    expect(isMuted({ blocks, userId: "u4", now: NOW })).toBe(false);
    expect(isMuted({ blocks, userId: "u1", now: NOW, personaId: "p-other" })).toBe(false);
  });

  it("block activity and filtering", () => {
    expect(isBlockActive(blockRecord({ expiresAt: "2026-03-01T12:00:00.001Z" }), NOW)).toBe(true);
    expect(isBlockActive(blockRecord({ expiresAt: NOW }), NOW)).toBe(false);
    expect(activeBlocksFor([blockRecord(), blockRecord({ personaId: "x" })], PERSONA.id, NOW)).toHaveLength(
      1,
    );
    expect(blockedRunNoticeText("Eve", 2, "Aria")).toBe(
      "[System: 2 messages from Eve hidden here: Eve is blocked from Aria.]",
    );
  });

  it("the PERSONA_USER_BLOCKS card lists who, type, effect, expiry and reason", () => {
    const text = personaUserBlocksCardText(
      [
        blockRecord(),
        blockRecord({
          userId: "u-eve",
          userName: "Eve",
          blockType: "mute",
          reason: null,
          expiresAt: "2026-04-01T00:00:00.000Z",
        }),
      ],
      "Aria",
    );
    expect(text).toBe(
      [
        "# PERSONA USER BLOCKS",
        "These users are restricted from interacting with Aria. A block is not deletion and not memory redaction: memories and documents about them are unchanged.",
        "- Mallory (u-mal): block — cannot trigger Aria, and their recent messages and media are hidden from this context. Expires: never. Reason: spam.",
        "- Eve (u-eve): mute — cannot trigger Aria; their messages stay visible. Expires: 2026-04-01T00:00:00.000Z. Reason: none given.",
      ].join("\n"),
    );
  });
});
