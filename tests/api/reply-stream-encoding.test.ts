// encodedText (lib/chat/turn/reply-events.ts) gives the bytes a TextEncoderStream would for the same pieces: a
// surrogate pair split across two pieces arrives whole, an empty piece gives nothing, a lone half at the end is
// replaced as the encoder replaces it, and cancelling the bytes cancels the text.
import { describe, expect, test } from "vitest";
import { encodedText } from "@/lib/chat/turn/reply-events";

function textStream(pieces: string[]): ReadableStream<string> {
  return new ReadableStream<string>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  const bytes: number[] = [];
  for await (const chunk of stream) bytes.push(...chunk);
  return bytes;
}

const pair = "🙂"; // two UTF-16 code units
describe("encodedText", () => {
  test.each([
    ["plain pieces", ["data: {}\n\n", "data: [DONE]\n\n"]],
    ["a surrogate pair split across pieces", [`a${pair[0]}`, `${pair[1]}b`]],
    ["empty pieces and a half pair alone", ["", pair[0], "", pair[1], "é"]],
    ["a lone first half at the end", ["x", pair[0]]],
    ["a lone second half", [pair[1], "y"]],
  ])("%s: the bytes a TextEncoderStream gives", async (_, pieces) => {
    const expected = await bytesOf(textStream(pieces).pipeThrough(new TextEncoderStream()));
    expect(await bytesOf(encodedText(textStream(pieces)))).toEqual(expected);
  });

  test("the text reads as sent: a split pair is one character", async () => {
    const decoded = new TextDecoder().decode(
      new Uint8Array(await bytesOf(encodedText(textStream([`hi ${pair[0]}`, `${pair[1]}!`])))),
    );
    expect(decoded).toBe(`hi ${pair}!`);
  });

  test("cancelling the bytes cancels the text it reads", async () => {
    let cancelled: unknown = null;
    const text = new ReadableStream<string>({
      pull(controller) {
        controller.enqueue("more ");
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const reader = encodedText(text).getReader();
    await reader.read();
    await reader.cancel("client gone");
    expect(cancelled).toBe("client gone");
  });
});
