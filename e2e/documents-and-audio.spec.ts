// Documents and audio (docs/features.md#documents-audio-and-video): a person attaches a PDF and an audio clip;
// the chat shows the PDF as a card and the clip with a player; the inspector shows what each model received —
// Gemini both, as media parts — or the notice it got instead (OpenAI chat: the PDF, and a notice for the audio).
import { expect, test } from "@playwright/test";
import { makePdf, makeWav } from "../tests/fixtures/media";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("a PDF and an audio clip: Gemini receives both, OpenAI chat the PDF and the audio notice", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Ada", {
    emailPrefix: "documents",
    modelId: "google:gemini-2.5-flash",
  });

  // Small (a one-page PDF, a 40 ms clip): the raw view folds media into placeholders whatever its size.
  const pdf = makePdf("Quarterly report. Revenue grew in every region.");
  const wav = makeWav(40);
  await page.getByTestId("attach-input").setInputFiles([
    { name: "report.pdf", mimeType: "application/pdf", buffer: pdf },
    { name: "note.wav", mimeType: "audio/wav", buffer: wav },
  ]);
  const chips = page.getByTestId("composer-attachment");
  await expect(chips).toHaveCount(2);
  for (const chip of await chips.all()) await expect(chip).toHaveAttribute("data-state", "ready");

  await fake.script({ kind: "text", text: "A report and a silent note.", protocol: "gemini" });
  await chat.sendAndWait("Summarise both, please.");

  // The chat: the PDF as a card with its name and size, the clip with a player.
  const question = chat.messages("user").last();
  await expect(question.getByTestId("message-document")).toContainText("report.pdf");
  await expect(question.getByTestId("message-document")).toContainText("PDF");
  await expect(question.getByTestId("message-audio")).toContainText("note.wav");
  await expect(question.getByTestId("message-audio").locator("audio")).toHaveAttribute(
    "src",
    /\/api\/attachments\//,
  );

  // Gemini received both, as inlineData with their types.
  const [gemini] = await fake.requests("gemini");
  expect(gemini.media).toEqual([
    { part: "inlineData", mediaType: "application/pdf", filename: null, bytes: pdf.length },
    { part: "inlineData", mediaType: "audio/wav", filename: null, bytes: wav.length },
  ]);

  // The inspector names each item's kind and says it was sent.
  let panel = await chat.inspectReply();
  let media = panel.root.getByTestId("media-part");
  await expect(media).toHaveCount(2);
  await expect(media.nth(0)).toHaveAttribute("data-kind", "PDF document");
  await expect(media.nth(0)).toContainText("PDF document sent · application/pdf · report.pdf");
  await expect(media.nth(1)).toHaveAttribute("data-kind", "audio clip");
  await expect(media.nth(1)).toContainText("audio clip sent · audio/wav");
  // The raw view's placeholders name the kind too.
  const pretty = await panel.prettyBody();
  expect(pretty).toContain("[PDF document elided: application/pdf");
  expect(pretty).toContain("[audio clip elided: audio/wav");
  expect(pretty).not.toContain(pdf.toString("base64"));
  expect(pretty).not.toContain(wav.toString("base64"));
  await expect(panel.root.getByTestId("raw-media-kind")).toHaveText(["PDF document", "audio clip"]);
  await panel.close();

  // The same message, now answered by OpenAI chat: the PDF is sent, the audio becomes a notice.
  await chat.chooseModel("openai:gpt-4.1-mini");
  await fake.script({ kind: "text", text: "I read the report.", protocol: "openai-chat" });
  await chat.sendAndWait("And what did you hear?");
  const [openai] = await fake.requests("openai-chat");
  expect(openai.media).toEqual([
    { part: "file", mediaType: "application/pdf", filename: "report.pdf", bytes: pdf.length },
  ]);

  panel = await chat.inspectReply();
  media = panel.root.getByTestId("media-part");
  await expect(media).toHaveCount(1);
  await expect(media).toHaveAttribute("data-kind", "PDF document");
  const notice = panel.root.getByTestId("notice").filter({ hasText: "contains an audio clip" });
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText("Current model cannot hear audio");
});
