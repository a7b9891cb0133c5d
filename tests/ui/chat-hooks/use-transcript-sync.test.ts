// @vitest-environment happy-dom
// The shown transcript against the stored one: live messages go in place without duplicates, a finished reply or a
// new summary reloads the stored transcript, and a reload never lands over a newer turn or a stop on its way.
import { act, cleanup, renderHook } from "@testing-library/react";
import type { ChatStatus } from "ai";
import { useCallback, useRef, useState } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { useTranscriptSync } from "@/components/chat/hooks/use-transcript-sync";
import { summariesKey } from "@/components/chat/summary-api";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import {
  deferred,
  FakeEventSource,
  queryWrapper,
  type RecordedRequest,
  reply,
  SETTLED,
  storedMessage,
  stubFetch,
  transcriptResponse,
  userMessage,
} from "./harness";

/** What GET /api/conversations/c1/messages answers: set per test, held open with `deferred` where needed. */
let stored: () => Response | Promise<Response>;
let requests: RecordedRequest[];

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.stubGlobal("EventSource", FakeEventSource);
  stored = () => transcriptResponse([]);
  requests = stubFetch((request) =>
    request.url === "/api/conversations/c1/messages" ? stored() : undefined,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const transcriptLoads = () => requests.filter((request) => request.url === "/api/conversations/c1/messages");

function renderSync(initialMessages: ChatUIMessage[], status: ChatStatus = "ready") {
  const { client, wrapper } = queryWrapper();
  const hook = renderHook(
    (props: { status: ChatStatus }) => {
      // As useChat's does, the update is applied at once (the live hook reads whether it changed anything).
      const [messages, setShown] = useState(initialMessages);
      const current = useRef(initialMessages);
      const setMessages = useCallback(
        (update: ChatUIMessage[] | ((shown: ChatUIMessage[]) => ChatUIMessage[])) => {
          current.current = typeof update === "function" ? update(current.current) : update;
          setShown(current.current);
        },
        [],
      );
      const sync = useTranscriptSync({
        conversationId: "c1",
        initialEventId: 5,
        initialSummaries: { summaries: [], activeSummaryId: null },
        status: props.status,
        setMessages,
      });
      return { messages, ...sync };
    },
    { wrapper, initialProps: { status } },
  );
  const source = FakeEventSource.instances[0];
  const ids = () => hook.result.current.messages.map((message) => message.id);
  return { ...hook, client, source, ids };
}

const storedQuestion = {
  ...userMessage("u1", "Hello", 1),
  metadata: { status: "complete" as const, seq: 1 },
};
const storedReply = reply("r1", "Hi there.", { status: "complete", seq: 2, replyToMessageId: "u1" });

describe("live events", () => {
  test("follows the conversation from the event the transcript was read at", () => {
    const { source } = renderSync([]);
    expect(source.url).toBe("/api/conversations/c1/events?after=5");
  });

  test("the stored copy of a message this page sent replaces the shown one: no duplicate", () => {
    const { source, ids, result } = renderSync([userMessage("client-1", "Hello")]);
    act(() => source.emit(6, { type: "message", message: storedQuestion, clientMessageId: "client-1" }));
    expect(ids()).toEqual(["u1"]);
    expect(result.current.messages[0].metadata?.seq).toBe(1);
  });

  test("a message delivered twice (a reconnect replays it) is shown once, where its seq puts it", () => {
    const { source, ids } = renderSync([storedQuestion]);
    const other = { ...userMessage("u3", "Late", 3), metadata: { status: "complete" as const, seq: 3 } };
    act(() => source.emit(6, { type: "message", message: other, clientMessageId: null }));
    act(() => source.emit(6, { type: "message", message: other, clientMessageId: null }));
    const between = { ...userMessage("u2", "Between", 2), metadata: { status: "complete" as const, seq: 2 } };
    act(() => source.emit(7, { type: "message", message: between, clientMessageId: null }));
    expect(ids()).toEqual(["u1", "u2", "u3"]);
  });

  test("a streaming reply is updated in place as it grows; once finished the stored transcript is reloaded", async () => {
    stored = () =>
      transcriptResponse([
        storedMessage("u1", "user", "Hello", 1),
        storedMessage("r1", "persona", "Hi there.", 2),
      ]);
    const { source, ids, result } = renderSync([storedQuestion]);
    const growing = (text: string, status: "streaming" | "complete") =>
      reply("r1", text, { status, seq: 2, replyToMessageId: "u1" });
    act(() =>
      source.emit(6, { type: "message", message: growing("Hi", "streaming"), clientMessageId: null }),
    );
    act(() =>
      source.emit(7, { type: "message", message: growing("Hi there", "streaming"), clientMessageId: null }),
    );
    expect(ids()).toEqual(["u1", "r1"]);
    expect(result.current.messages[1].parts).toEqual([{ type: "text", text: "Hi there" }]);
    expect(transcriptLoads()).toHaveLength(0);
    act(() =>
      source.emit(8, { type: "message", message: growing("Hi there.", "complete"), clientMessageId: null }),
    );
    await vi.waitFor(() => expect(transcriptLoads()).toHaveLength(1), SETTLED);
    await vi.waitFor(() => expect(result.current.messages[1].metadata?.authorName).toBe("Helper"), SETTLED);
    expect(ids()).toEqual(["u1", "r1"]);
  });

  test.each([
    ["the stored transcript", storedReply],
    [
      "this page's own stream (its finish carries the stored status)",
      reply("r1", "Hi there.", { status: "complete" }),
    ],
  ])("an earlier state of a reply that arrives after %s said it ended is dropped", (_, ended) => {
    const { source, result } = renderSync([storedQuestion, ended]);
    const late = reply("r1", "Hi", { status: "streaming", seq: 2, replyToMessageId: "u1" });
    act(() => source.emit(6, { type: "message", message: late, clientMessageId: null }));
    expect(result.current.messages[1]).toBe(ended);
    const edited = reply("r1", "Hi, edited.", { status: "complete", seq: 2, replyToMessageId: "u1" });
    act(() => source.emit(7, { type: "message", message: edited, clientMessageId: null }));
    expect(result.current.messages[1].parts).toEqual([{ type: "text", text: "Hi, edited." }]);
  });

  test("while this page's own turn streams, live messages wait; the transcript is reloaded when it ends", async () => {
    stored = () =>
      transcriptResponse([storedMessage("u1", "user", "Hello", 1), storedMessage("u9", "user", "Me too", 3)]);
    const { source, ids, rerender } = renderSync([storedQuestion], "streaming");
    const other = { ...userMessage("u9", "Me too", 3), metadata: { status: "complete" as const, seq: 3 } };
    act(() => source.emit(6, { type: "message", message: other, clientMessageId: null }));
    expect(ids()).toEqual(["u1"]);
    rerender({ status: "ready" });
    await vi.waitFor(() => expect(ids()).toEqual(["u1", "u9"]), SETTLED);
    expect(transcriptLoads()).toHaveLength(1);
  });
});

describe("reloads", () => {
  test("the stored transcript replaces the shown one", async () => {
    stored = () =>
      transcriptResponse([storedMessage("u1", "user", "Hello", 1), storedMessage("r1", "persona", "Hi.", 2)]);
    const { result, ids } = renderSync([userMessage("client-1", "Hello")]);
    await act(() => result.current.reloadTranscript());
    expect(ids()).toEqual(["u1", "r1"]);
  });

  test("a reload that comes back after the next turn started is dropped", async () => {
    const answer = deferred<Response>();
    stored = () => answer.promise;
    const { result, ids } = renderSync([storedQuestion, storedReply]);
    let reloaded: Promise<void> = Promise.resolve();
    act(() => {
      reloaded = result.current.reloadTranscript();
    });
    act(() => result.current.noteTurnStarted());
    answer.resolve(transcriptResponse([storedMessage("u1", "user", "Hello", 1)]));
    await act(() => reloaded);
    expect(ids()).toEqual(["u1", "r1"]);
  });

  test("while a stop is on its way, reloads are dropped and live events wait; one reload follows the stop", async () => {
    stored = () => transcriptResponse([storedMessage("u1", "user", "Hello", 1)]);
    const { result, ids, source } = renderSync([storedQuestion, storedReply]);
    const stopStored = deferred<void>();
    let holding: Promise<void> = Promise.resolve();
    act(() => {
      holding = result.current.holdWhile(() => stopStored.promise);
    });
    await act(() => result.current.reloadTranscript());
    expect(ids()).toEqual(["u1", "r1"]);
    act(() => source.emit(6, { type: "transcript" }));
    expect(transcriptLoads()).toHaveLength(1);
    stored = () =>
      transcriptResponse([
        storedMessage("u1", "user", "Hello", 1),
        storedMessage("r1", "persona", "Hi", 2, "stopped"),
      ]);
    stopStored.resolve();
    await act(() => holding);
    await vi.waitFor(() => expect(result.current.messages[1]?.metadata?.status).toBe("stopped"), SETTLED);
    expect(transcriptLoads()).toHaveLength(2);
  });

  test("a new active summary reloads the transcript, so its marks show what the summary covers", async () => {
    stored = () => transcriptResponse([{ ...storedMessage("u1", "user", "Hello", 1), summarizedBy: "s1" }]);
    const { client, result } = renderSync([storedQuestion]);
    act(() => client.setQueryData(summariesKey("c1"), { summaries: [], activeSummaryId: "s1" }));
    await vi.waitFor(() => expect(result.current.messages[0].metadata?.summarized).toBe(true), SETTLED);
    expect(transcriptLoads()).toHaveLength(1);
  });
});
