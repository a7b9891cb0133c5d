// @vitest-environment happy-dom
// The conversation's useChat: a reply still streaming on the server is resumed when the page loads (when the
// server can resume streams), a send carries only the new message, and a finished turn refreshes what it changed.
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { useConversationChat } from "@/components/chat/hooks/use-conversation-chat";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { queryWrapper, SETTLED, stubFetch, uiMessageStream, userMessage } from "./harness";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const replyChunks = (messageId: string, words: string[]) => [
  { type: "start", messageId },
  { type: "text-start", id: "text-1" },
  ...words.map((delta) => ({ type: "text-delta", id: "text-1", delta })),
  { type: "text-end", id: "text-1" },
  { type: "finish" },
];

function renderChat(initialMessages: ChatUIMessage[], resumeStream: boolean) {
  const { client, wrapper } = queryWrapper();
  const invalidated: string[] = [];
  const invalidate = client.invalidateQueries.bind(client);
  client.invalidateQueries = (filters, options) => {
    invalidated.push(JSON.stringify(filters?.queryKey));
    return invalidate(filters, options);
  };
  const onTurnFinished = vi.fn();
  const hook = renderHook(
    () => useConversationChat({ conversationId: "c1", initialMessages, resumeStream, onTurnFinished }),
    { wrapper },
  );
  return { ...hook, invalidated, onTurnFinished };
}

describe("resume after a reload", () => {
  test("reconnects to the reply still being written and shows it as it streams on", async () => {
    const requests = stubFetch((request) =>
      request.url === "/api/chat/c1/stream"
        ? uiMessageStream(replyChunks("r1", ["Once ", "upon ", "a time."]))
        : undefined,
    );
    const { result, onTurnFinished, invalidated } = renderChat([userMessage("u1", "Tell me a story")], true);
    await vi.waitFor(() => expect(result.current.messages).toHaveLength(2), SETTLED);
    await vi.waitFor(() => expect(result.current.status).toBe("ready"), SETTLED);
    expect(onTurnFinished).toHaveBeenCalledTimes(1);
    expect(requests.map(({ method, url }) => `${method} ${url}`)).toEqual(["GET /api/chat/c1/stream"]);
    expect(result.current.messages.map(({ id, role }) => ({ id, role }))).toEqual([
      { id: "u1", role: "user" },
      { id: "r1", role: "assistant" },
    ]);
    expect(result.current.messages[1].parts).toContainEqual(
      expect.objectContaining({ type: "text", text: "Once upon a time." }),
    );
    expect(invalidated).toEqual([
      '["turns","c1"]',
      '["preview","c1"]',
      '["conversations"]',
      '["summaries","c1"]',
    ]);
  });

  test("nothing to resume (the server answers 204): the transcript stays as loaded", async () => {
    const requests = stubFetch((request) =>
      request.url === "/api/chat/c1/stream" ? new Response(null, { status: 204 }) : undefined,
    );
    const { result, onTurnFinished } = renderChat([userMessage("u1", "Hello")], true);
    await vi.waitFor(() => expect(requests).toHaveLength(1), SETTLED);
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(result.current.messages.map((message) => message.id)).toEqual(["u1"]);
    expect(result.current.status).toBe("ready");
    expect(onTurnFinished).not.toHaveBeenCalled();
  });

  test("without a server that can resume, the page does not ask", async () => {
    const requests = stubFetch(() => undefined);
    renderChat([userMessage("u1", "Hello")], false);
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(requests).toEqual([]);
  });
});

describe("a turn", () => {
  test("sends only the new message (the server owns the history), and reloads when the reply ends", async () => {
    const requests = stubFetch((request) =>
      request.url === "/api/chat" ? uiMessageStream(replyChunks("r2", ["Fine, ", "thanks."])) : undefined,
    );
    const { result, onTurnFinished } = renderChat(
      [userMessage("u1", "Hello"), userMessage("u2", "Again")],
      false,
    );
    await act(() => result.current.sendMessage({ text: "How are you?" }));
    await vi.waitFor(() => expect(onTurnFinished).toHaveBeenCalledTimes(1), SETTLED);
    expect(requests).toHaveLength(1);
    const body = requests[0].body as {
      id: string;
      message: ChatUIMessage;
      trigger: string;
      messages?: unknown;
    };
    expect(body.id).toBe("c1");
    expect(body.trigger).toBe("submit-message");
    expect(body.message.parts).toEqual([{ type: "text", text: "How are you?" }]);
    expect(body.messages).toBeUndefined();
  });

  test("a regenerate names the model that answers it", async () => {
    const requests = stubFetch((request) =>
      request.url === "/api/chat" ? uiMessageStream(replyChunks("r3", ["Again."])) : undefined,
    );
    const first = { id: "r1", role: "assistant" as const, parts: [{ type: "text" as const, text: "Hi." }] };
    const { result } = renderChat([userMessage("u1", "Hello"), first], false);
    await act(() => result.current.regenerate({ messageId: "r1", body: { modelId: "openai:gpt-5-mini" } }));
    expect(requests[0].body).toMatchObject({
      trigger: "regenerate-message",
      messageId: "r1",
      modelId: "openai:gpt-5-mini",
    });
  });
});
