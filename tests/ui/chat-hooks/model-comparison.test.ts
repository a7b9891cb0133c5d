// @vitest-environment happy-dom
// A comparison's stream as its columns read it: each model's chunks go to its own answer, in the order the
// server sends them (lib/compare-stream.ts); "Use this answer" chooses that variant, then the transcript reloads.
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  type ComparedAnswer,
  useModelComparison,
  withChunk,
} from "@/components/chat/hooks/use-model-comparison";
import { eventChunks } from "@/lib/compare-stream";
import { json, stubFetch, uiMessageStream } from "./harness";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const waiting = (modelId: string): ComparedAnswer => ({
  modelId,
  answeredBy: null,
  text: "",
  variantId: null,
  status: "waiting",
  error: null,
});

/** The answers after the stream's text, applied as the hook applies it. */
function read(modelIds: string[], text: string): ComparedAnswer[] {
  let current = -1;
  let answers = modelIds.map(waiting);
  for (const chunk of eventChunks(text)) {
    if (chunk.type === "data-compare") current = (chunk.data as { index: number }).index;
    answers = withChunk(answers, current, chunk);
  }
  return answers;
}

const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

describe("a comparison's stream, column by column", () => {
  test("two models stream in turn; a fallback and a refused model are said", () => {
    const text = [
      event({ type: "data-compare", data: { index: 0, modelId: "a:1" } }),
      event({ type: "start", messageId: "v1" }),
      event({ type: "text-delta", id: "t", delta: "Hello " }),
      event({ type: "text-delta", id: "t", delta: "there." }),
      event({ type: "finish", finishReason: "stop" }),
      event({ type: "data-compare", data: { index: 1, modelId: "b:2" } }),
      event({ type: "start", messageId: "v2" }),
      event({ type: "message-metadata", messageMetadata: { modelId: "c:3" } }),
      event({ type: "text-delta", id: "t", delta: "From the fallback." }),
      event({ type: "finish", finishReason: "stop" }),
      event({ type: "data-compare", data: { index: 2, modelId: "d:4", error: "Rate limited." } }),
      "data: [DONE]\n\n",
    ].join("");
    expect(read(["a:1", "b:2", "d:4", "e:5"], text)).toEqual([
      {
        modelId: "a:1",
        answeredBy: null,
        text: "Hello there.",
        variantId: "v1",
        status: "done",
        error: null,
      },
      {
        modelId: "b:2",
        answeredBy: "c:3",
        text: "From the fallback.",
        variantId: "v2",
        status: "done",
        error: null,
      },
      {
        modelId: "d:4",
        answeredBy: null,
        text: "",
        variantId: null,
        status: "error",
        error: "Rate limited.",
      },
      waiting("e:5"),
    ]);
  });

  test("a reply that fails mid-way keeps its text and says why", () => {
    const text = [
      event({ type: "data-compare", data: { index: 0, modelId: "a:1" } }),
      event({ type: "start", messageId: "v1" }),
      event({ type: "text-delta", id: "t", delta: "Half" }),
      event({ type: "error", errorText: "The provider failed." }),
      event({ type: "finish", finishReason: "error" }),
    ].join("");
    expect(read(["a:1"], text)).toEqual([
      {
        modelId: "a:1",
        answeredBy: null,
        text: "Half",
        variantId: "v1",
        status: "error",
        error: "The provider failed.",
      },
    ]);
  });
});

describe("the hook", () => {
  test("both models' chunks in one read still reach their own columns; Use this answer chooses the variant", async () => {
    const requests = stubFetch((request) => {
      if (request.url === "/api/chat/c1/compare")
        return uiMessageStream([
          { type: "data-compare", data: { index: 0, modelId: "a:1" } },
          { type: "start", messageId: "v1" },
          { type: "text-delta", id: "t", delta: "First." },
          { type: "finish", finishReason: "stop" },
          { type: "data-compare", data: { index: 1, modelId: "b:2" } },
          { type: "start", messageId: "v2" },
          { type: "text-delta", id: "t", delta: "Second." },
          { type: "finish", finishReason: "stop" },
        ]);
      if (request.url === "/api/conversations/c1/messages/v2")
        return json({ message: { id: "v2" }, versions: [] });
    });
    const calls: string[] = [];
    const { result } = renderHook(() =>
      useModelComparison({
        conversationId: "c1",
        noteTurnStarted: () => calls.push("turn started"),
        reloadTranscript: async () => {
          calls.push("reload");
        },
      }),
    );
    await act(() => result.current.start("r1", ["a:1", "b:2"]));
    await waitFor(() => expect(result.current.comparison?.running).toBe(false));
    expect(
      result.current.comparison?.answers.map(({ modelId, text, variantId, status }) => [
        modelId,
        text,
        variantId,
        status,
      ]),
    ).toEqual([
      ["a:1", "First.", "v1", "done"],
      ["b:2", "Second.", "v2", "done"],
    ]);
    expect(requests[0]).toEqual({
      method: "POST",
      url: "/api/chat/c1/compare",
      body: { messageId: "r1", modelIds: ["a:1", "b:2"] },
    });

    await act(() => result.current.use("v2"));
    expect(requests[1]).toEqual({
      method: "PATCH",
      url: "/api/conversations/c1/messages/v2",
      body: { chosen: true },
    });
    expect(result.current.comparison).toBeNull();
    expect(calls).toEqual(["turn started", "reload", "reload"]);
  });

  test("a refused comparison says why", async () => {
    stubFetch(() =>
      json(
        {
          error: {
            code: "bad_request",
            message: "modelIds[1]: b:2 is named twice; compare distinct models.",
          },
        },
        400,
      ),
    );
    const { result } = renderHook(() =>
      useModelComparison({
        conversationId: "c1",
        noteTurnStarted: () => {},
        reloadTranscript: async () => {},
      }),
    );
    await act(() => result.current.start("r1", ["b:2", "b:2"]));
    expect(result.current.comparison).toMatchObject({
      running: false,
      error: "modelIds[1]: b:2 is named twice; compare distinct models.",
    });
  });
});
