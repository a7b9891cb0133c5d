// Documents, audio and video (docs/features.md#documents-audio-and-video): uploaded, typed from their bytes,
// capped per kind, and sent to each model as it can take them (Gemini: PDF, audio and video as inlineData; OpenAI
// chat: the PDF as a file part, a notice for the audio). Real routes, real database, the fake providers.
import { afterEach, describe, expect, test } from "vitest";
import * as chatRoute from "@/app/api/chat/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import { attachments } from "@/db/schema";
import { makePdf, TEST_MEDIA, testMedium } from "@/tests/fixtures/media";
import { call, expectError, readUIStream, type TestUser } from "../api-client";
import { fakeProvidersForFile } from "../fixtures/fake-provider-env";
import { createConversation, insertPersona } from "../fixtures/personas";
import { fetchTurns, storedMessages } from "../fixtures/turns";
import { signedUpForFile } from "../fixtures/users";
import { conversationRows } from "./row-counts";

const env = fakeProvidersForFile();
const ada = signedUpForFile("Ada");

function upload(user: TestUser, conversationId: string, bytes: Uint8Array, filename: string, type = "") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  return call(uploadRoute.POST, `/api/conversations/${conversationId}/attachments`, {
    user,
    method: "POST",
    params: { id: conversationId },
    body: form,
  });
}

async function uploaded(conversationId: string, bytes: Uint8Array, filename: string) {
  const response = await upload(ada, conversationId, bytes, filename);
  expect(response.status).toBe(201);
  return ((await response.json()) as { attachment: { id: string; url: string; kind: string; mime: string } })
    .attachment;
}

function chat(conversationId: string, parts: unknown[]) {
  return call(chatRoute.POST, "/api/chat", {
    user: ada,
    body: { id: conversationId, message: { role: "user", parts }, trigger: "submit-message" },
  });
}

async function conversationOn(modelId: string) {
  return createConversation(ada, await insertPersona({ modelId }));
}

async function attachmentCount(conversationId: string) {
  return (await conversationRows(attachments, conversationId)).length;
}

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["MEDIA_MAX_PDF_BYTES", "MEDIA_MAX_AUDIO_BYTES", "MEDIA_MAX_VIDEO_BYTES"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("uploads of each kind", () => {
  // Each medium under the file name it is uploaded as.
  const fileNames = {
    pdf: "report.pdf",
    mp3: "clip.mp3",
    wav: "clip.wav",
    ogg: "clip.ogg",
    flac: "clip.flac",
    m4a: "clip.m4a",
    mp4: "film.mp4",
    webm: "film.webm",
    mov: "film.mov",
  } as const;
  test.each(
    Object.entries(fileNames).map(([medium, name]) => ({
      name,
      ...testMedium(medium as keyof typeof fileNames),
    })),
  )("$name: 201, typed $kind $mime from its bytes", async ({ name, bytes, kind, mime }) => {
    const conversationId = await conversationOn("google:gemini-2.5-flash");
    // The declared type is ignored: the bytes decide.
    const response = await upload(ada, conversationId, bytes, name, "application/octet-stream");
    expect(response.status).toBe(201);
    const { attachment } = await response.json();
    expect(attachment).toMatchObject({ kind, mime, filename: name, sizeBytes: bytes.length });
  });

  test.each([
    {
      name: "text declared as a PDF",
      bytes: Buffer.from("just some words"),
      type: "application/pdf",
      message: /declared as application\/pdf but its bytes are not a file this app accepts/,
    },
    {
      name: "HTML declared as MP3 audio",
      bytes: Buffer.from("<!doctype html><script>alert(1)</script>"),
      type: "audio/mpeg",
      message: /declared as audio\/mpeg/,
    },
    {
      name: "a PDF cut short",
      bytes: TEST_MEDIA.pdf.subarray(0, TEST_MEDIA.pdf.length - 30),
      type: "application/pdf",
      message: /PDF but is truncated/,
    },
  ])("$name: 415 that says so, nothing stored", async ({ bytes, type, message }) => {
    const conversationId = await conversationOn("google:gemini-2.5-flash");
    const response = await upload(ada, conversationId, bytes, "file", type);
    expect(await expectError(response, 415, "unsupported_media_type")).toMatch(message);
    expect(await attachmentCount(conversationId)).toBe(0);
  });

  test.each([
    {
      variable: "MEDIA_MAX_PDF_BYTES",
      bytes: makePdf("x".repeat(2_000)),
      message: /PDF document is larger than/,
    },
    { variable: "MEDIA_MAX_AUDIO_BYTES", bytes: TEST_MEDIA.wav, message: /audio clip is larger than/ },
    { variable: "MEDIA_MAX_VIDEO_BYTES", bytes: TEST_MEDIA.mp4, message: /video is larger than/ },
  ])(
    "over $variable: 413 naming the kind and its limit, nothing stored",
    async ({ variable, bytes, message }) => {
      process.env[variable] = "40";
      const conversationId = await conversationOn("google:gemini-2.5-flash");
      const response = await upload(ada, conversationId, bytes, "big");
      expect(await expectError(response, 413, "payload_too_large")).toMatch(message);
      expect(await attachmentCount(conversationId)).toBe(0);
    },
  );
});

describe("what each model receives", () => {
  async function sendPdfAndAudio(modelId: string) {
    const conversationId = await conversationOn(modelId);
    const pdf = await uploaded(conversationId, TEST_MEDIA.pdf, "report.pdf");
    const audio = await uploaded(conversationId, TEST_MEDIA.wav, "note.wav");
    env.providers.script({ kind: "text", text: "Read and heard." });
    const response = await chat(conversationId, [
      { type: "file", url: pdf.url, mediaType: pdf.mime },
      { type: "file", url: audio.url, mediaType: audio.mime },
      { type: "text", text: "Summarise both." },
    ]);
    expect(response.status).toBe(200);
    await readUIStream(response);
    const { turns } = await fetchTurns(ada, conversationId);
    return { conversationId, pdf, audio, attempt: turns[0].attempts[0], request: env.providers.requests[0] };
  }

  test("Gemini: the PDF and the audio clip, both as inlineData with their mime types", async () => {
    const { request, attempt, pdf, audio, conversationId } = await sendPdfAndAudio("google:gemini-2.5-flash");
    expect(request.media).toEqual([
      { part: "inlineData", mediaType: "application/pdf", filename: null, bytes: TEST_MEDIA.pdf.length },
      { part: "inlineData", mediaType: "audio/wav", filename: null, bytes: TEST_MEDIA.wav.length },
    ]);
    const parts = attempt.items.flatMap((item) => item.parts);
    expect(parts.filter((part) => part.type === "file")).toEqual([
      expect.objectContaining({ attachmentId: pdf.id, mediaType: "application/pdf", filename: "report.pdf" }),
    ]);
    expect(parts.filter((part) => part.type === "audio")).toEqual([
      expect.objectContaining({ attachmentId: audio.id, mediaType: "audio/wav" }),
    ]);
    expect(attempt.trace).toContainEqual(
      expect.objectContaining({
        action: "attached-media",
        counts: { images: 0, videos: 0, audio: 1, documents: 1 },
      }),
    );
    const [question] = await storedMessages(conversationId);
    expect(question.parts).toEqual([
      { type: "text", text: "Summarise both." },
      { type: "media", attachmentId: pdf.id },
      { type: "media", attachmentId: audio.id },
    ]);
  });

  test("OpenAI chat: the PDF as a file part with its name; the audio becomes a notice", async () => {
    const { request, attempt } = await sendPdfAndAudio("openai:gpt-4.1-mini");
    expect(request.media).toEqual([
      { part: "file", mediaType: "application/pdf", filename: "report.pdf", bytes: TEST_MEDIA.pdf.length },
    ]);
    expect(request.body).toContain("contains an audio clip. Current model cannot hear audio");
    expect(request.body).not.toContain(TEST_MEDIA.wav.toString("base64"));
    expect(attempt.trace.map((event) => event.action)).toEqual(
      expect.arrayContaining(["attached-media", "blind-media-notice"]),
    );
    // The stored body elides the PDF's bytes, like an image's.
    expect(attempt.request?.body ?? "").toContain("application/pdf");
  });

  test("Gemini gets a video as inlineData; OpenAI chat the video notice", async () => {
    for (const [modelId, expected] of [
      ["google:gemini-2.5-flash", "inlineData"],
      ["openai:gpt-4.1-mini", null],
    ] as const) {
      env.providers.reset();
      const conversationId = await conversationOn(modelId);
      const video = await uploaded(conversationId, TEST_MEDIA.mp4, "film.mp4");
      env.providers.script({ kind: "text", text: "Watched." });
      await readUIStream(
        await chat(conversationId, [
          { type: "file", url: video.url },
          { type: "text", text: "And this?" },
        ]),
      );
      const [request] = env.providers.requests;
      if (expected)
        expect(request.media).toEqual([expect.objectContaining({ part: expected, mediaType: "video/mp4" })]);
      else {
        expect(request.media).toEqual([]);
        expect(request.body).toContain("Current model cannot see videos");
      }
    }
  });
});
