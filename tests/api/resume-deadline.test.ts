// resumeReplyStream (lib/chat/turn-control/resumable-streams.ts): a resume whose answer never comes ends at its
// deadline (the route then answers 204), an answer in time is passed on, nothing to resume is null, and a stream
// that arrives after the deadline is cancelled. The relay through Redis itself runs in e2e/resume.spec.ts.
import { describe, expect, test } from "vitest";
import { resumeReplyStream } from "@/lib/chat/turn-control/resumable-streams";

type Answer = ReadableStream<string> | null | undefined;

function context(answer: Promise<Answer>) {
  return { resumeExistingStream: () => answer };
}

function textStream(onCancel: () => void = () => {}): ReadableStream<string> {
  return new ReadableStream<string>({
    start(controller) {
      controller.enqueue("data: {}\n\n");
    },
    cancel: onCancel,
  });
}

describe("resumeReplyStream", () => {
  test("an answer that never comes ends at the deadline", async () => {
    const startedAt = performance.now();
    await expect(resumeReplyStream(context(new Promise<Answer>(() => {})), "turn-1", 50)).rejects.toThrow(
      "no instance answered the resume within 50 ms",
    );
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });

  test.each([
    ["a stream", textStream()],
    ["nothing (done)", null],
    ["nothing (unknown)", undefined],
  ])("an answer in time is passed on: %s", async (_, answer) => {
    const resumed = await resumeReplyStream(context(Promise.resolve(answer)), "turn-1", 1_000);
    expect(resumed).toBe(answer ?? null);
  });

  test("a stream that arrives after the deadline is cancelled", async () => {
    let cancelled = false;
    let arrive: (stream: ReadableStream<string>) => void = () => {};
    const late = new Promise<Answer>((resolve) => {
      arrive = resolve;
    });
    await expect(resumeReplyStream(context(late), "turn-1", 20)).rejects.toThrow();
    arrive(
      textStream(() => {
        cancelled = true;
      }),
    );
    await expect.poll(() => cancelled).toBe(true);
  });
});
