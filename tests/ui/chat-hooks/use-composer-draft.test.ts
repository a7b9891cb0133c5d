// @vitest-environment happy-dom
// The next message as it is written: sending takes the text and the uploaded files and clears both; a blank
// message is not sent; in a room, typing tells the others.
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { useComposerDraft } from "@/components/chat/hooks/use-composer-draft";
import { useInspectorTarget } from "@/components/chat/hooks/use-inspector-target";
import { json, SETTLED, stubFetch } from "./harness";

beforeEach(() => {
  stubFetch((request) =>
    request.url === "/api/conversations/c1/attachments"
      ? json({
          attachment: {
            id: "a1",
            kind: "image",
            mime: "image/png",
            filename: "cat.png",
            url: "/api/attachments/a1",
          },
        })
      : undefined,
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDraft(onTyping?: () => void) {
  const send = vi.fn();
  const hook = renderHook(() => useComposerDraft({ conversationId: "c1", send, onTyping }));
  return { ...hook, send };
}

test("the trimmed text and the uploaded files are sent, and the draft is cleared", async () => {
  const { result, send } = renderDraft();
  act(() => result.current.change("  Look at this  "));
  act(() => result.current.picker.add([new File(["png"], "cat.png", { type: "image/png" })]));
  await vi.waitFor(() => expect(result.current.picker.ready).toHaveLength(1), SETTLED);
  act(() => result.current.submit());
  expect(send).toHaveBeenCalledWith("Look at this", [
    { type: "file", mediaType: "image/png", url: "/api/attachments/a1", filename: "cat.png" },
  ]);
  expect(result.current.draft).toBe("");
  expect(result.current.picker.pending).toEqual([]);
});

test("a blank draft without files is not sent and stays as typed", () => {
  const { result, send } = renderDraft();
  act(() => result.current.change("   "));
  act(() => result.current.submit());
  expect(send).not.toHaveBeenCalled();
  expect(result.current.draft).toBe("   ");
});

test("typing something (not blanks) tells the room", () => {
  const onTyping = vi.fn();
  const { result } = renderDraft(onTyping);
  act(() => result.current.change(" "));
  act(() => result.current.change(" h"));
  expect(onTyping).toHaveBeenCalledTimes(1);
});

test("the inspector toggles a reply and the preview, one at a time", () => {
  const { result } = renderHook(() => useInspectorTarget());
  act(() => result.current.toggleReply("r1"));
  expect(result.current.target).toEqual({ kind: "reply", messageId: "r1" });
  act(() => result.current.toggleReply("r2"));
  expect(result.current.target).toEqual({ kind: "reply", messageId: "r2" });
  act(() => result.current.togglePreview());
  expect(result.current.target).toEqual({ kind: "preview" });
  act(() => result.current.togglePreview());
  expect(result.current.target).toBeNull();
  act(() => result.current.toggleReply("r1"));
  act(() => result.current.toggleReply("r1"));
  expect(result.current.target).toBeNull();
});
