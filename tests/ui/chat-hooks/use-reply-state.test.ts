// @vitest-environment happy-dom
// The reply being written and its stop: a reply still streaming after a reload holds the page, Stop sends what was
// shown and gives the focus back to the message box, Escape stops from anywhere but a field or dialog of its own.
import { act, cleanup, renderHook } from "@testing-library/react";
import type { ChatStatus } from "ai";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { useReplyState } from "@/components/chat/hooks/use-reply-state";
import type { ChatUIMessage } from "@/lib/chat/views/ui-messages";
import { json, type RecordedRequest, reply, SETTLED, stubFetch, userMessage } from "./harness";

let composer: HTMLTextAreaElement;
let events: string[];
let stopAnswer: () => Response;
let requests: RecordedRequest[];

beforeEach(() => {
  composer = document.createElement("textarea");
  document.body.append(composer);
  events = [];
  stopAnswer = () => json({ turnId: "t1", messageId: "r1", status: "stopped" });
  requests = stubFetch((request) => {
    if (request.url === "/api/conversations/c1/stop") {
      events.push("stop request");
      return stopAnswer();
    }
  });
});

afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

function renderReplyState(messages: ChatUIMessage[], status: ChatStatus = "ready") {
  const stop = vi.fn(async () => {
    events.push("stream closed");
  });
  const reloadTranscript = vi.fn(async () => {
    events.push("transcript reloaded");
  });
  const holdWhile = vi.fn(async (task: () => Promise<void>) => {
    events.push("hold");
    await task();
    events.push("release");
  });
  const hook = renderHook(
    (props: { messages: ChatUIMessage[]; status: ChatStatus }) =>
      useReplyState({
        conversationId: "c1",
        ...props,
        stop,
        reloadTranscript,
        holdWhile,
        composerInput: { current: composer },
      }),
    { initialProps: { messages, status } },
  );
  return { ...hook, stop, reloadTranscript, holdWhile };
}

const question = userMessage("u1", "Tell me a story");
const writing = reply("r1", "Once upon", { status: "streaming" });

describe("a reply being written", () => {
  test.each([
    {
      name: "after a reload, the stored copy still streaming holds the page",
      messages: [question, writing],
      status: "ready" as const,
      expected: { busy: false, replyInProgress: true, replyRunning: true, streamingMessageId: "r1" },
    },
    {
      name: "a stored reply that is complete holds nothing",
      messages: [question, reply("r1", "Once upon a time.")],
      status: "ready" as const,
      expected: { busy: false, replyInProgress: false, replyRunning: false, streamingMessageId: undefined },
    },
    {
      name: "this page's own request is out: busy, nothing streams yet",
      messages: [question],
      status: "submitted" as const,
      expected: { busy: true, replyInProgress: false, replyRunning: true, streamingMessageId: undefined },
    },
    {
      name: "this page streams the reply (resumed or sent)",
      messages: [question, reply("r1", "Once")],
      status: "streaming" as const,
      expected: { busy: true, replyInProgress: false, replyRunning: true, streamingMessageId: "r1" },
    },
  ])("$name", ({ messages, status, expected }) => {
    const { result } = renderReplyState(messages, status);
    const { busy, replyInProgress, replyRunning, streamingMessageId } = result.current;
    expect({ busy, replyInProgress, replyRunning, streamingMessageId }).toEqual(expected);
  });
});

describe("stop", () => {
  test("sends the shown length first, then closes the stream, holds reloads meanwhile and reloads after", async () => {
    const { result, stop } = renderReplyState([question, writing]);
    const button = document.createElement("button");
    document.body.append(button);
    button.focus();
    await act(() => result.current.stopNow());
    expect(requests).toEqual([
      { method: "POST", url: "/api/conversations/c1/stop", body: { shownChars: 9 } },
    ]);
    expect(events).toEqual(["hold", "stop request", "stream closed", "release", "transcript reloaded"]);
    expect(stop).toHaveBeenCalledTimes(1);
    // The Stop button goes away with the stream: the message box has the focus, not <body>.
    expect(document.activeElement).toBe(composer);
  });

  test("a stop answered 409 (the reply had ended) lets the page go although the copy still says streaming", async () => {
    stopAnswer = () => json({ error: { code: "not_running", message: "No reply is being written" } }, 409);
    const { result, reloadTranscript } = renderReplyState([question, writing]);
    expect(result.current.replyInProgress).toBe(true);
    await act(() => result.current.stopNow());
    expect(result.current.replyInProgress).toBe(false);
    expect(result.current.replyRunning).toBe(false);
    expect(reloadTranscript).toHaveBeenCalledTimes(1);
  });

  test("with no reply text shown yet, the stop keeps nothing", async () => {
    const { result } = renderReplyState([question], "submitted");
    await act(() => result.current.stopNow());
    expect(requests.map((request) => request.body)).toEqual([{ shownChars: 0 }]);
  });
});

describe("Escape", () => {
  /** A new element on the page, with `attributes`. */
  function appended(tag: string, attributes: Record<string, string> = {}) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    document.body.append(element);
    return element;
  }

  /** The page, with a new element on it (the key is pressed on the page, not on the element). */
  function pageWith(tag: string, attributes: Record<string, string>) {
    appended(tag, attributes);
    return document.body;
  }

  function pressEscape(target: EventTarget = document.body) {
    act(() => {
      target.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    });
  }

  test("stops a reply being written from anywhere on the page, the message box included", async () => {
    const { holdWhile } = renderReplyState([question, writing]);
    pressEscape();
    await vi.waitFor(() => expect(requests).toHaveLength(1), SETTLED);
    pressEscape(composer);
    await vi.waitFor(() => expect(requests).toHaveLength(2), SETTLED);
    expect(holdWhile).toHaveBeenCalledTimes(2);
  });

  test.each([
    {
      name: "a field with its own Escape (renaming, editing a message)",
      setUp: () => appended("input"),
    },
    {
      name: "an open dialog",
      setUp: () => pageWith("dialog", { open: "" }),
    },
    {
      name: "an open Radix dialog (role=dialog)",
      setUp: () => pageWith("div", { role: "dialog" }),
    },
    {
      name: "a handler that already took the key",
      setUp: () => {
        const field = appended("div");
        field.addEventListener("keydown", (event) => event.preventDefault());
        return field;
      },
    },
  ])("leaves the reply alone in $name", async ({ setUp }) => {
    const { stop } = renderReplyState([question, writing]);
    pressEscape(setUp());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toEqual([]);
    expect(stop).not.toHaveBeenCalled();
  });

  test("does nothing when no reply is being written", async () => {
    renderReplyState([question, reply("r1", "Done.")]);
    pressEscape();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toEqual([]);
  });

  test("stops listening once the reply is stored", async () => {
    const { rerender } = renderReplyState([question, writing]);
    rerender({ messages: [question, reply("r1", "Once upon a time.")], status: "ready" });
    pressEscape();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toEqual([]);
  });
});
