// Image links in a message (docs/features.md#image-links). A bare http(s) URL whose path ends in an image
// extension (.png, .jpg, .jpeg, .gif, .webp) is fetched by the server through the SSRF-safe fetcher and stored as
// an attachment of the message, with the link as its origin; other links are left alone (fetching every link a
// person pastes would visit pages they only meant to mention). A link this conversation already fetched for an
// earlier message reuses those bytes: it is fetched once per conversation. A link that is refused becomes a
// visible notice in the message, never a silent drop.
import "server-only";
import { findImageByOrigin, storeUpload } from "@/db/attachment-queries";
import type { Database } from "@/db/client";
import { type FetchImageLinkOptions, fetchImageLink, type ImageLinkResult } from "./fetch-image-link";

/** At most this many links of one message are fetched; the rest stay text. */
export const MAX_IMAGE_LINKS = 4;

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const IMAGE_PATH = /\.(?:png|jpe?g|gif|webp)$/i;

/** The image links of a message's text, in order, each once, at most MAX_IMAGE_LINKS. */
export function imageLinksIn(text: string): string[] {
  const links: string[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    // Sentence punctuation and a closing bracket after a link are not part of it.
    const candidate = match[0].replace(/[.,;:!?)\]}]+$/, "");
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      continue;
    }
    if (!IMAGE_PATH.test(url.pathname) || links.includes(url.toString())) continue;
    links.push(url.toString());
    if (links.length === MAX_IMAGE_LINKS) break;
  }
  return links;
}

export type PreparedImageLink =
  | { url: string; reuse: string }
  | { url: string; fetched: Extract<ImageLinkResult, { ok: true }> }
  | { url: string; refused: string };

/** Each link's image: an earlier fetch of this conversation, a new fetch, or why it was not fetched. */
export async function prepareImageLinks({
  db,
  conversationId,
  text,
  options,
}: {
  db: Database;
  conversationId: string;
  text: string;
  options?: FetchImageLinkOptions;
}): Promise<PreparedImageLink[]> {
  return Promise.all(
    imageLinksIn(text).map(async (url): Promise<PreparedImageLink> => {
      const earlier = await findImageByOrigin({ db, conversationId, originUrl: url });
      if (earlier) return { url, reuse: earlier.id };
      const result = await fetchImageLink(url, options);
      return result.ok ? { url, fetched: result } : { url, refused: result.reason };
    }),
  );
}

/** The notice a refused link leaves in the message, for the model and for people. */
export function imageLinkNotice(url: string, reason: string): string {
  return `[System: The image at ${url} was not fetched: ${reason}.]`;
}

/** Stores the new fetches as pending attachments: the ids the message carries, and the notices it gets. */
export async function storeImageLinks({
  db,
  conversationId,
  userId,
  prepared,
}: {
  db: Database;
  conversationId: string;
  userId: string;
  prepared: PreparedImageLink[];
}): Promise<{ attachmentIds: string[]; notices: string[] }> {
  const attachmentIds: string[] = [];
  const notices: string[] = [];
  for (const link of prepared) {
    if ("reuse" in link) attachmentIds.push(link.reuse);
    else if ("refused" in link) notices.push(imageLinkNotice(link.url, link.refused));
    else {
      const { bytes, image } = link.fetched;
      const stored = await storeUpload({
        db,
        conversationId,
        uploadedBy: userId,
        bytes,
        mime: image.mime,
        kind: image.kind,
        filename: new URL(link.url).pathname.split("/").pop()?.slice(0, 255) || null,
        width: image.width,
        height: image.height,
        originUrl: link.url,
      });
      attachmentIds.push(stored.id);
    }
  }
  return { attachmentIds, notices };
}
