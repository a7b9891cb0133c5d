// The bodies the browser reads, as the real routes send them: each parsed with a strict schema that tsc ties to
// the route's described body (./response-schemas.ts), the type the client's fetchers read. A route that stops
// sending a field the client may read, or sends one the type does not name, fails here; a client that reads a field
// no route sends fails tsc (the last test shows both refusals).
import { beforeAll, describe, expect, test } from "vitest";
import type { z } from "zod";
import * as blocksRoute from "@/app/api/admin/blocks/route";
import * as adminMemoriesRoute from "@/app/api/admin/memories/route";
import * as adminModelsRoute from "@/app/api/admin/models/route";
import * as adminPersonaRoute from "@/app/api/admin/personas/[id]/route";
import * as adminPersonasRoute from "@/app/api/admin/personas/route";
import * as adminSettingsRoute from "@/app/api/admin/settings/route";
import * as settingsVersionsRoute from "@/app/api/admin/settings/versions/route";
import * as adminUsersRoute from "@/app/api/admin/users/route";
import * as replayRoute from "@/app/api/attempts/[id]/replay/route";
import * as attemptRoute from "@/app/api/attempts/[id]/route";
import * as attemptsRoute from "@/app/api/attempts/route";
import * as chatRoute from "@/app/api/chat/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import * as branchRoute from "@/app/api/conversations/[id]/branch/route";
import * as compactRoute from "@/app/api/conversations/[id]/compact/route";
import * as exportRoute from "@/app/api/conversations/[id]/export/route";
import * as messageRoute from "@/app/api/conversations/[id]/messages/[messageId]/route";
import * as messagesRoute from "@/app/api/conversations/[id]/messages/route";
import * as participantsRoute from "@/app/api/conversations/[id]/participants/route";
import * as previewRoute from "@/app/api/conversations/[id]/preview/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as revertRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/revert/route";
import * as summaryRoute from "@/app/api/conversations/[id]/summaries/[summaryId]/route";
import * as summariesRoute from "@/app/api/conversations/[id]/summaries/route";
import * as turnsRoute from "@/app/api/conversations/[id]/turns/route";
import * as writeAsMeRoute from "@/app/api/conversations/[id]/write-as-me/route";
import * as importRoute from "@/app/api/conversations/import/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as invitationsRoute from "@/app/api/invitations/route";
import * as keysRoute from "@/app/api/keys/route";
import * as memoriesRoute from "@/app/api/memories/route";
import * as personasRoute from "@/app/api/personas/route";
import * as searchRoute from "@/app/api/search/route";
import type { ConversationDetail } from "@/components/chat/api";
import type { AttemptView } from "@/components/inspector/types";
import { respond } from "@/lib/api/respond";
import { type CallOptions, call, readUIStream, signUp, type TestUser } from "../api-client";
import { makePng } from "../fixtures/attachments";
import { signUpAdmin } from "./admin-helpers";
import { gatewayClient } from "./gateway-fixtures";
import * as shapes from "./response-schemas";
import { putPreferences } from "./summary-helpers";

type Handler = Parameters<typeof call>[0];

let ada: TestUser;
let bob: TestUser;
let conversationId: string;

/** The route's JSON body, after checking its status. */
async function json(
  handler: Handler,
  path: string,
  options: CallOptions = {},
  status = 200,
): Promise<unknown> {
  const response = await call(handler, path, options);
  const text = await response.text();
  if (response.status !== status)
    throw new Error(`${path}: expected ${status}, got ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** Parse with the strict schema; a mismatch fails with every path that differs. */
function expectShape<Body>(schema: z.ZodType<Body>, body: unknown): Body {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Error(
      result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("\n"),
    );
  }
  return result.data;
}

async function send(text: string) {
  const body = { id: conversationId, message: { role: "user", parts: [{ type: "text", text }] } };
  await readUIStream(await call(chatRoute.POST, "/api/chat", { user: ada, body }));
}

beforeAll(async () => {
  ada = await signUpAdmin("Ada");
  bob = await signUp("Bob");
  // Ada keeps summaries as memories, so the memories route has one to send once she compacts.
  expect((await putPreferences(ada, { sessionSummaries: true })).status).toBe(200);
  const created = await json(
    conversationsRoute.POST,
    "/api/conversations",
    { user: ada, body: { title: "Shapes of answers" } },
    201,
  );
  conversationId = expectShape(shapes.createdConversation, created).id;
  await send("Tell me about lighthouses.");
  await send("And about their keepers.");
});

const params = () => ({ id: conversationId });

async function readTranscript() {
  const path = `/api/conversations/${conversationId}/messages`;
  return expectShape(shapes.transcript, await json(messagesRoute.GET, path, { user: ada, params: params() }));
}

async function readCallIndex() {
  const path = `/api/conversations/${conversationId}/turns?fields=summary`;
  return expectShape(shapes.callIndex, await json(turnsRoute.GET, path, { user: ada, params: params() }));
}

describe("the chat's responses match the types its fetchers read", () => {
  test("conversations: list, detail, change, personas, search", async () => {
    const list = expectShape(
      shapes.conversationList,
      await json(conversationsRoute.GET, "/api/conversations", { user: ada }),
    );
    expect(list.conversations.map((c) => c.id)).toContain(conversationId);
    const detail = expectShape(
      shapes.conversationDetail,
      await json(conversationRoute.GET, `/api/conversations/${conversationId}`, {
        user: ada,
        params: params(),
      }),
    );
    expect(detail.conversation).toMatchObject({
      id: conversationId,
      isOwner: true,
      title: "Shapes of answers",
    });
    const patched = expectShape(
      shapes.patchedConversation,
      await json(conversationRoute.PATCH, `/api/conversations/${conversationId}`, {
        user: ada,
        method: "PATCH",
        params: params(),
        body: { instructions: "Be brief." },
      }),
    );
    expect(patched.conversation.instructions).toBe("Be brief.");
    expectShape(shapes.personaPicker, await json(personasRoute.GET, "/api/personas", { user: ada }));
    const found = expectShape(
      shapes.searchResult,
      await json(searchRoute.GET, "/api/search?q=lighthouses", { user: ada }),
    );
    expect(found.conversations.map((c) => c.id)).toEqual([conversationId]);
    expect(found.conversations[0].hits.length).toBeGreaterThan(0);
  });

  test("the transcript and one message with its versions", async () => {
    const transcript = await readTranscript();
    expect(transcript.messages.map((m) => m.authorType)).toEqual(["user", "persona", "user", "persona"]);
    const [first] = transcript.messages;
    expectShape(
      shapes.messageWithVersions,
      await json(messageRoute.GET, `/api/conversations/${conversationId}/messages/${first.id}`, {
        user: ada,
        params: { id: conversationId, messageId: first.id },
      }),
    );
  });

  test("people: participants, an invitation sent, the invitee's invitations", async () => {
    const people = expectShape(
      shapes.participantList,
      await json(participantsRoute.GET, `/api/conversations/${conversationId}/participants`, {
        user: ada,
        params: params(),
      }),
    );
    expect(people.participants.map((p) => p.role)).toEqual(["owner"]);
    expectShape(
      shapes.invitationSent,
      await json(
        participantsRoute.POST,
        `/api/conversations/${conversationId}/participants`,
        { user: ada, params: params(), body: { email: bob.email } },
        202,
      ),
    );
    const invitations = expectShape(
      shapes.invitationList,
      await json(invitationsRoute.GET, "/api/invitations", { user: bob }),
    );
    expect(invitations.invitations.map((i) => i.conversationId)).toEqual([conversationId]);
  });

  test("summaries: compact now, then the list", async () => {
    const compacted = expectShape(
      shapes.compactResult,
      await json(
        compactRoute.POST,
        `/api/conversations/${conversationId}/compact`,
        { user: ada, params: params(), body: { keepRecentTurns: 1 } },
        201,
      ),
    );
    expect(compacted.compacted).toBe(true);
    const list = expectShape(
      shapes.summaryList,
      await json(summariesRoute.GET, `/api/conversations/${conversationId}/summaries`, {
        user: ada,
        params: params(),
      }),
    );
    expect(list.summaries).toHaveLength(1);
    expect(list.activeSummaryId).toBe(list.summaries[0].id);
  });

  test("memories", async () => {
    const { memories } = expectShape(
      shapes.ownMemories,
      await json(memoriesRoute.GET, "/api/memories", { user: ada }),
    );
    expect(memories.length).toBeGreaterThan(0);
  });
});

describe("the settings pages' responses match the types they read", () => {
  test("API keys: one made, then the list with each key's usage after a call", async () => {
    const { key, secret } = expectShape(
      shapes.createdKey,
      await json(keysRoute.POST, "/api/keys", { user: ada, body: { name: "shapes" } }, 201),
    );
    // The persona of this file's conversation, which answers here, by its slug.
    const detail = expectShape(
      shapes.conversationDetail,
      await json(conversationRoute.GET, `/api/conversations/${conversationId}`, {
        user: ada,
        params: params(),
      }),
    );
    const { personas } = expectShape(
      shapes.personaPicker,
      await json(personasRoute.GET, "/api/personas", { user: ada }),
    );
    await gatewayClient(secret).chat.completions.create({
      model: personas.find((persona) => persona.id === detail.persona.id)?.slug as string,
      messages: [{ role: "user", content: "Hello" }],
    });
    const { keys } = expectShape(shapes.keyList, await json(keysRoute.GET, "/api/keys", { user: ada }));
    expect(keys.find((row) => row.id === key.id)?.usage.calls).toBe(1);
  });
});

describe("the inspector's responses match the types it reads", () => {
  test("the call index, the full turns, one attempt and the preview", async () => {
    const index = await readCallIndex();
    expect(index.turns).toHaveLength(2);
    const full = expectShape(
      shapes.fullCallIndex,
      await json(turnsRoute.GET, `/api/conversations/${conversationId}/turns`, {
        user: ada,
        params: params(),
      }),
    );
    expect(full.turns.map((turn) => turn.id)).toEqual(index.turns.map((turn) => turn.id));
    const attemptId = index.turns[0].attempts[0].id;
    const { attempt } = expectShape(
      shapes.attempt,
      await json(attemptRoute.GET, `/api/attempts/${attemptId}`, { user: ada, params: { id: attemptId } }),
    );
    expect(attempt.id).toBe(attemptId);
    expectShape(
      shapes.preview,
      await json(previewRoute.POST, `/api/conversations/${conversationId}/preview`, {
        user: ada,
        params: params(),
        body: { text: "And their lamps?" },
      }),
    );
  });
});

describe("the admin pages' responses match the types they read", () => {
  beforeAll(async () => {
    // A row in each list, so the rows' schemas are exercised too.
    const detail = expectShape(
      shapes.conversationDetail,
      await json(conversationRoute.GET, `/api/conversations/${conversationId}`, {
        user: ada,
        params: params(),
      }),
    );
    const personaId = detail.persona.id;
    await json(
      blocksRoute.POST,
      "/api/admin/blocks",
      { user: ada, body: { personaId, userId: bob.id, blockType: "mute", durationMinutes: 60 } },
      201,
    );
    await json(
      adminMemoriesRoute.POST,
      "/api/admin/memories",
      {
        user: ada,
        body: {
          scope: "user_persona",
          userId: ada.id,
          personaId,
          area: "fact",
          content: "Likes lighthouses.",
        },
      },
      201,
    );
  });

  test.each([
    {
      name: "settings",
      handler: adminSettingsRoute.GET,
      path: "/api/admin/settings",
      schema: shapes.adminSettings,
    },
    {
      name: "settings versions",
      handler: settingsVersionsRoute.GET,
      path: "/api/admin/settings/versions",
      schema: shapes.adminSettingsVersions,
    },
    {
      name: "personas",
      handler: adminPersonasRoute.GET,
      path: "/api/admin/personas",
      schema: shapes.adminPersonas,
    },
    { name: "models", handler: adminModelsRoute.GET, path: "/api/admin/models", schema: shapes.adminModels },
    { name: "users", handler: adminUsersRoute.GET, path: "/api/admin/users", schema: shapes.adminUsers },
    { name: "blocks", handler: blocksRoute.GET, path: "/api/admin/blocks", schema: shapes.adminBlocks },
    {
      name: "memories",
      handler: adminMemoriesRoute.GET,
      path: "/api/admin/memories",
      schema: shapes.adminMemories,
    },
  ])("$name", async ({ handler, path, schema }) => {
    const body = expectShape(schema as z.ZodType, await json(handler as Handler, path, { user: ada }));
    // Every list holds at least one row, so its rows were checked too.
    const [list] = Object.values(body as Record<string, unknown>).filter(Array.isArray);
    if (list) expect(list.length).toBeGreaterThan(0);
  });

  test("one persona", async () => {
    const { personas } = expectShape(
      shapes.adminPersonas,
      await json(adminPersonasRoute.GET, "/api/admin/personas", { user: ada }),
    );
    const personaId = personas[0].id;
    expectShape(
      shapes.adminPersona,
      await json(adminPersonaRoute.GET, `/api/admin/personas/${personaId}`, {
        user: ada,
        params: { id: personaId },
      }),
    );
  });
});

describe("the answers to the chat's actions match the types their callers read", () => {
  test("branch, export and import, write as me, upload", async () => {
    const transcript = await readTranscript();
    const branch = expectShape(
      shapes.branched,
      await json(
        branchRoute.POST,
        `/api/conversations/${conversationId}/branch`,
        { user: ada, params: params(), body: { messageId: transcript.messages[1].id } },
        201,
      ),
    );
    expect(branch.id).not.toBe(conversationId);
    const archive = await json(exportRoute.GET, `/api/conversations/${conversationId}/export`, {
      user: ada,
      params: params(),
    });
    const copy = expectShape(
      shapes.imported,
      await json(importRoute.POST, "/api/conversations/import", { user: ada, body: archive }, 201),
    );
    expect(copy.title).toBe("Shapes of answers");
    const { draft } = expectShape(
      shapes.draft,
      await json(writeAsMeRoute.POST, `/api/conversations/${conversationId}/write-as-me`, {
        user: ada,
        params: params(),
      }),
    );
    expect(draft.length).toBeGreaterThan(0);
    const form = new FormData();
    form.append("file", new File([new Uint8Array(makePng(4, 7))], "dot.png", { type: "image/png" }));
    const { attachment } = expectShape(
      shapes.uploaded,
      await json(
        uploadRoute.POST,
        `/api/conversations/${conversationId}/attachments`,
        { user: ada, params: params(), body: form },
        201,
      ),
    );
    expect(attachment).toMatchObject({ kind: "image", mime: "image/png", filename: "dot.png" });
  });

  test("a replay, the attempt search, a summary edited and reverted", async () => {
    const index = await readCallIndex();
    const sourceId = index.turns[0].attempts[0].id;
    const { attempt } = expectShape(
      shapes.replayed,
      await json(replayRoute.POST, `/api/attempts/${sourceId}/replay`, {
        user: ada,
        params: { id: sourceId },
        body: {},
      }),
    );
    expect(attempt).toMatchObject({ kind: "replay", replayOf: sourceId });
    const found = expectShape(
      shapes.attemptSearch,
      await json(attemptsRoute.GET, "/api/attempts", { user: ada }),
    );
    expect(found.attempts.map((row) => row.id)).toContain(sourceId);
    const { activeSummaryId } = expectShape(
      shapes.summaryList,
      await json(summariesRoute.GET, `/api/conversations/${conversationId}/summaries`, {
        user: ada,
        params: params(),
      }),
    );
    const summaryPath = `/api/conversations/${conversationId}/summaries/${activeSummaryId}`;
    const summaryParams = { id: conversationId, summaryId: String(activeSummaryId) };
    const edited = expectShape(
      shapes.summaryUpdated,
      await json(summaryRoute.PUT, summaryPath, {
        user: ada,
        method: "PUT",
        params: summaryParams,
        body: { content: "Lighthouses and their keepers." },
      }),
    );
    expect(edited.summary?.content).toBe("Lighthouses and their keepers.");
    const reverted = expectShape(
      shapes.summaryReverted,
      await json(revertRoute.POST, `${summaryPath}/revert`, {
        user: ada,
        method: "POST",
        params: summaryParams,
      }),
    );
    expect(reverted).toMatchObject({ reverted: { id: activeSummaryId }, restored: null });
  });
});

describe("the checks have teeth", () => {
  test("a body missing a field, or carrying one the type does not name, is refused", async () => {
    const detail = (await json(conversationRoute.GET, `/api/conversations/${conversationId}`, {
      user: ada,
      params: params(),
    })) as { conversation: Record<string, unknown> };
    const { isOwner: _isOwner, ...withoutIsOwner } = detail.conversation;
    expect(() => expectShape(shapes.conversationDetail, { ...detail, conversation: withoutIsOwner })).toThrow(
      /conversation\.isOwner/,
    );
    expect(() =>
      expectShape(shapes.conversationDetail, {
        ...detail,
        conversation: { ...detail.conversation, createdAt: "x" },
      }),
    ).toThrow(/createdAt/);
  });

  test("tsc refuses a read of a field no route sends, and a route body that leaves a field out", () => {
    // Never called: what matters is that each line below fails to compile without its @ts-expect-error.
    const clientReads = (detail: ConversationDetail, attempt: AttemptView) => [
      // @ts-expect-error GET /api/conversations/:id sends no createdAt on its conversation.
      detail.conversation.createdAt,
      // @ts-expect-error an attempt's view carries no sentTokens (the index's cost estimate drops them).
      attempt.sentTokens,
    ];
    const withoutInvitedAt = { conversationId: "c", title: "t", invitedBy: "Ada" };
    const routeAnswers = () => {
      // @ts-expect-error GET /api/invitations must send invitedAt with each invitation.
      return respond("GET /api/invitations", { invitations: [withoutInvitedAt] });
    };
    expect([typeof clientReads, typeof routeAnswers]).toEqual(["function", "function"]);
  });
});
