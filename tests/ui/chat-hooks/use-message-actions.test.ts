// @vitest-environment happy-dom
// What the user does to the transcript: each change goes to its route, then the stored transcript is reloaded;
// every turn started is noted first; a branch opens the new conversation; the actions stay one object while the
// transcript changes (the memoised messages do not re-render).
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { useMessageActions } from "@/components/chat/hooks/use-message-actions";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { json, queryWrapper, type RecordedRequest, reply, stubFetch, userMessage } from "./harness";

// One router across renders, as Next's is.
const router = vi.hoisted(() => ({ push: vi.fn() }));
const push = router.push;
vi.mock("next/navigation", () => ({ useRouter: () => router }));

let requests: RecordedRequest[];
let calls: string[];
// The id an edit answers with when it forked the question (a new version), else the edited message's own.
let forkedId: string | undefined;

beforeEach(() => {
  push.mockReset();
  calls = [];
  forkedId = undefined;
  requests = stubFetch((request) => {
    calls.push(`${request.method} ${request.url}`);
    if (request.url === "/api/conversations/c1/branch") return json({ id: "c2", title: "Branch" });
    // An edit answers with the message as stored: the same id, or a new version's when the edit forked.
    if (request.url.startsWith("/api/conversations/c1/messages/"))
      return json({ message: { id: forkedId ?? request.url.split("/").at(-1) }, versions: [] });
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** One array across renders, as ChatView passes it: a new one would (rightly) give new actions. */
const noModels: never[] = [];

function renderActions(initialMessages: ChatUIMessage[]) {
  const chat = {
    setMessages: vi.fn(),
    sendMessage: vi.fn(async () => {
      calls.push("send");
    }),
    regenerate: vi.fn(async () => {
      calls.push("regenerate");
    }),
    clearError: vi.fn(() => {
      calls.push("clear error");
    }),
  };
  const noteTurnStarted = vi.fn(() => {
    calls.push("turn started");
  });
  const reloadTranscript = vi.fn(async () => {
    calls.push("reload");
  });
  const onInspect = vi.fn();
  const onCompare = vi.fn();
  const { client, wrapper } = queryWrapper();
  const invalidate = vi.spyOn(client, "invalidateQueries");
  const hook = renderHook(
    (props: { messages: ChatUIMessage[] }) =>
      useMessageActions({
        conversationId: "c1",
        chat: { ...chat, messages: props.messages },
        author: { userId: "user-1", userName: "Ada" },
        regenerateModels: noModels,
        onCompare,
        onInspect,
        noteTurnStarted,
        reloadTranscript,
      }),
    { wrapper, initialProps: { messages: initialMessages } },
  );
  return { ...hook, chat, noteTurnStarted, reloadTranscript, onInspect, invalidate };
}

const question = userMessage("u1", "What is 2+2?");
const answer = reply("r1", "4", { status: "complete", replyToMessageId: "u1" });

describe("changes made on the server, then the transcript reloaded", () => {
  test("choosing a variant", async () => {
    const { result } = renderActions([question, answer]);
    await act(() => result.current.actions.onChooseVariant("r0"));
    expect(requests).toEqual([
      { method: "PATCH", url: "/api/conversations/c1/messages/r0", body: { chosen: true } },
    ]);
    expect(calls).toEqual(["PATCH /api/conversations/c1/messages/r0", "reload"]);
  });

  test("restoring an earlier version", async () => {
    const { result } = renderActions([question, answer]);
    await act(() => result.current.actions.onRestoreVersion("u1", "v1"));
    expect(requests[0]).toEqual({
      method: "PATCH",
      url: "/api/conversations/c1/messages/u1",
      body: { restoreVersionId: "v1" },
    });
    expect(calls.at(-1)).toBe("reload");
  });

  test.each([
    {
      name: "an edit alone",
      regenerate: false,
      expected: ["PATCH /api/conversations/c1/messages/u1", "reload"],
      regenerated: [],
    },
    {
      name: "an edit with 'Save and regenerate': the reply to it gets a new variant",
      regenerate: true,
      expected: ["PATCH /api/conversations/c1/messages/u1", "reload", "turn started", "regenerate"],
      regenerated: [[{ messageId: "r1" }]],
    },
    {
      name: "an answered question's edit forks: the new version gets its own answer",
      regenerate: false,
      forked: "u2",
      expected: ["PATCH /api/conversations/c1/messages/u1", "reload", "turn started", "regenerate"],
      regenerated: [[{ messageId: "u2" }]],
    },
  ])("$name", async ({ regenerate, expected, regenerated, ...row }) => {
    forkedId = "forked" in row ? row.forked : undefined;
    const { result, chat } = renderActions([question, answer]);
    await act(() => result.current.actions.onEdit("u1", "What is 3+3?", regenerate));
    expect(requests[0].body).toEqual({ text: "What is 3+3?" });
    expect(calls).toEqual(expected);
    expect(chat.regenerate.mock.calls).toEqual(regenerated);
  });

  test("branching opens the new conversation and refreshes the list", async () => {
    const { result, invalidate } = renderActions([question, answer]);
    await act(() => result.current.actions.onBranch("u1"));
    expect(requests).toEqual([
      { method: "POST", url: "/api/conversations/c1/branch", body: { messageId: "u1" } },
    ]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["conversations"] });
    expect(push).toHaveBeenCalledWith("/chat/c2");
  });

  test("a failed change reaches the caller and reloads nothing", async () => {
    requests = stubFetch(() => json({ error: { code: "forbidden", message: "Not yours to edit" } }, 403));
    const { result, reloadTranscript } = renderActions([question, answer]);
    await expect(result.current.actions.onEdit("u1", "x", false)).rejects.toThrow("Not yours to edit");
    expect(reloadTranscript).not.toHaveBeenCalled();
  });
});

describe("turns", () => {
  test("regenerating clears the last error, notes the turn, and names the model when one was chosen", () => {
    const { result, chat } = renderActions([question, answer]);
    act(() => result.current.actions.onRegenerate("r1", "openai:gpt-5-mini"));
    act(() => result.current.actions.onRegenerate("r1"));
    expect(calls).toEqual([
      "clear error",
      "turn started",
      "regenerate",
      "clear error",
      "turn started",
      "regenerate",
    ]);
    expect(chat.regenerate.mock.calls).toEqual([
      [{ messageId: "r1", body: { modelId: "openai:gpt-5-mini" } }],
      [{ messageId: "r1" }],
    ]);
  });

  test("sending notes the turn, names the author and brings the transcript back to the bottom", () => {
    const { result, chat } = renderActions([]);
    expect(result.current.pinVersion).toBe(0);
    const file = { type: "file" as const, mediaType: "image/png", url: "/api/attachments/a1" };
    act(() => result.current.send("Look", [file]));
    act(() => result.current.send("", [file]));
    expect(calls).toEqual(["clear error", "turn started", "send", "clear error", "turn started", "send"]);
    const metadata = { authorName: "Ada", authorUserId: "user-1" };
    expect(chat.sendMessage.mock.calls).toEqual([
      [{ text: "Look", files: [file], metadata }],
      [{ files: [file], metadata }],
    ]);
    expect(result.current.pinVersion).toBe(2);
  });

  test("a request refused before anything was stored is sent again in place of the unanswered message", () => {
    const { result, chat } = renderActions([question, answer, userMessage("u2", "And 3+3?")]);
    act(() => result.current.retryRequest());
    expect(chat.setMessages).toHaveBeenCalledWith([question, answer]);
    expect(chat.sendMessage).toHaveBeenCalledWith({
      text: "And 3+3?",
      files: [],
      metadata: { authorName: "Ada", authorUserId: "user-1" },
    });
  });

  test("nothing to retry when the last message is a reply", () => {
    const { result, chat } = renderActions([question, answer]);
    act(() => result.current.retryRequest());
    expect(chat.setMessages).not.toHaveBeenCalled();
    expect(chat.sendMessage).not.toHaveBeenCalled();
  });
});

test("the actions stay the same object while the transcript changes, and inspect reaches the latest handler", () => {
  const { result, rerender, onInspect } = renderActions([question]);
  const first = result.current.actions;
  rerender({ messages: [question, answer] });
  expect(result.current.actions).toBe(first);
  first.onInspect("r1");
  expect(onInspect).toHaveBeenCalledWith("r1");
});
