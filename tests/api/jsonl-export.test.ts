// The JSONL export holds every attempt of a conversation, whatever its kind or status: an answered reply, a
// stopped one, a failed one, the title call and a replay each become one line that says its kind and status.
import { describe, expect, test } from "vitest";
import * as replayRoute from "@/app/api/attempts/[id]/replay/route";
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { call } from "../api-client";
import { exportOf, jsonlLines } from "../fixtures/archive-routes";
import { waitForRequests } from "../fixtures/fake-provider-env";
import { fakeProvidersAndUsersForFile } from "../fixtures/file-setup";
import { conversationWithPersona } from "../fixtures/personas";
import { fetchTurns, postChat, runTurn, UIStreamReader } from "../fixtures/turns";
import { stop } from "./reply-helpers";

const { env, ada } = fakeProvidersAndUsersForFile("Ada");

describe("JSONL export", () => {
  test("a reply, a failed reply, a stopped reply, the title call and a replay are all lines", async () => {
    const conversationId = await conversationWithPersona(ada, {
      modelId: "openai:gpt-4.1-mini",
      systemPrompt: "Answer in one line.",
    });

    // An answered reply; the first exchange also gets a title (the offline title model, in tests).
    env.providers.script({ kind: "text", text: "Tulips go 20 cm deep." });
    await runTurn(ada, conversationId, "How deep should tulips be planted?");
    await settleTitleGenerations();

    // A failed reply: a 400 is not retried, so the turn has one attempt, in error.
    env.providers.script({ kind: "error", status: 400, message: "Unsupported parameter" });
    await runTurn(ada, conversationId, "And daffodils?");

    // A stopped reply: the provider has sent nothing yet when the stop arrives.
    env.providers.clearRequests();
    env.providers.script({ kind: "hang" });
    const response = await postChat(ada, conversationId, "And crocuses?");
    const reader = new UIStreamReader(response);
    expect(await reader.next()).toMatchObject({ type: "start" });
    await waitForRequests(env.providers, 1);
    expect((await stop(ada, conversationId, { shownChars: 0 })).status).toBe(200);
    await reader.drain();

    // A replay of the answered reply.
    const { turns } = await fetchTurns(ada, conversationId);
    const answered = turns[0].attempts[0];
    env.providers.script({ kind: "text", text: "Replayed: 20 cm." });
    const replayed = await call(replayRoute.POST, `/api/attempts/${answered.id}/replay`, {
      user: ada,
      body: {},
      params: { id: answered.id },
    });
    expect(replayed.status).toBe(200);

    const exported = await exportOf(ada, conversationId, "?format=jsonl");
    expect(exported.status).toBe(200);
    const lines = await jsonlLines(exported);
    expect(lines.map((line) => [line.kind, line.status, line.modelId])).toEqual([
      ["reply", "ok", "openai:gpt-4.1-mini"],
      ["reply", "error", "openai:gpt-4.1-mini"],
      ["reply", "stopped", "openai:gpt-4.1-mini"],
      ["title", "ok", "offline:echo"],
      ["replay", "ok", "openai:gpt-4.1-mini"],
    ]);
    const [reply, failed, stopped, title, replay] = lines;
    expect(reply).toEqual({
      messages: [
        { role: "system", content: expect.stringContaining("Answer in one line.") },
        { role: "user", content: "How deep should tulips be planted?" },
        { role: "assistant", content: "Tulips go 20 cm deep." },
      ],
      kind: "reply",
      status: "ok",
      modelId: "openai:gpt-4.1-mini",
      error: null,
    });
    // A failed or stopped attempt carries what it sent and no reply; the failure says why.
    expect(failed.messages.at(-1)).toEqual({ role: "user", content: "And daffodils?" });
    expect(failed.error).toMatchObject({ status: 400 });
    expect(stopped.messages.at(-1)).toEqual({ role: "user", content: "And crocuses?" });
    // The title call records no items: its messages are read from the request it sent.
    expect(title.messages.at(0)).toMatchObject({ role: "system" });
    expect(JSON.stringify(title.messages)).toContain("How deep should tulips be planted?");
    expect(title.messages.at(-1).role).toBe("assistant");
    expect(replay.messages).toEqual([
      ...reply.messages.slice(0, -1),
      { role: "assistant", content: "Replayed: 20 cm." },
    ]);
  });
});
