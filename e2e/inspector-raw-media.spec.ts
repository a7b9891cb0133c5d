// The raw request's Pretty view shows a large image as a one-line placeholder (type, size, sha256 of the bytes)
// instead of hundreds of kilobytes of base64, with a thumbnail of the bytes beside it; the Exact bytes view still
// holds the body as the provider got it.
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { makePng } from "../tests/fixtures/images";
import { fakeProvidersForSpec } from "./fake-providers/for-spec";
import { startConversation } from "./pages/chat-page";

const fake = fakeProvidersForSpec();

test("Pretty shows a large image as a placeholder with type, size and sha256; Exact bytes keeps the base64", async ({
  page,
}) => {
  const { chat } = await startConversation(page, "Ada", { emailPrefix: "raw-media" });
  // A whole, valid PNG of about 300 KB (stored uncompressed): uploads are proved to be images to their last byte.
  const png = makePng(320);
  expect(png.length).toBeGreaterThan(300_000);
  const sha256 = createHash("sha256").update(png).digest("hex");
  await page
    .getByTestId("attach-input")
    .setInputFiles({ name: "big.png", mimeType: "image/png", buffer: png });
  await expect(page.getByTestId("composer-attachment")).toHaveAttribute("data-state", "ready");
  await chat.askScripted(fake, "Look at this", "A big picture.");
  const [received] = await fake.requests("openai-chat");
  expect(received.body).toContain(png.toString("base64"));

  const panel = await chat.inspectReply();
  const pretty = await panel.prettyBody();
  const size = `${(png.length / 1024).toFixed(1)} KB`;
  await expect(panel.root.getByTestId("raw-body")).toContainText(
    `"url": "[image elided: image/png, ${size}, sha256 ${sha256}]"`,
  );
  expect(pretty).not.toContain(png.toString("base64").slice(0, 200));
  expect(pretty.length).toBeLessThan(10_000);
  // Beside the placeholder, a thumbnail of the very bytes sent, with their type and hash.
  const media = panel.root.getByTestId("raw-media-item");
  await expect(media).toHaveCount(1);
  await expect(media).toHaveAttribute("data-media-type", "image/png");
  await expect(media).toHaveAttribute("data-sha256", sha256);
  const thumbnail = media.getByTestId("raw-media-thumbnail");
  await expect(thumbnail).toBeVisible();
  expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(320);
  // Compared as a boolean: a 400 KB body printed in a failure message helps no one.
  const exact = await panel.exactBody();
  expect(exact.length).toBe(received.body.length);
  expect(exact === received.body).toBe(true);
});
