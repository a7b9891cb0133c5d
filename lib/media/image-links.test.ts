// Which links of a message are image links (docs/features.md#image-links): bare http(s) URLs whose path ends
// in an image extension, trailing punctuation left out, each once, at most four.
import { describe, expect, it } from "vitest";
import { imageLinkNotice, imageLinksIn, MAX_IMAGE_LINKS } from "./image-links";

describe("imageLinksIn", () => {
  it.each([
    { text: "look https://example.com/cat.png", links: ["https://example.com/cat.png"] },
    { text: "(see http://example.com/a/b.JPG).", links: ["http://example.com/a/b.JPG"] },
    { text: "https://example.com/x.webp?size=large, nice", links: ["https://example.com/x.webp?size=large"] },
    {
      text: "two: https://a.test/1.gif and https://a.test/2.jpeg!",
      links: ["https://a.test/1.gif", "https://a.test/2.jpeg"],
    },
    { text: "the same twice https://a.test/1.png https://a.test/1.png", links: ["https://a.test/1.png"] },
    { text: "a page https://example.com/cats and a pdf https://example.com/a.pdf", links: [] },
    { text: "an image path in the query only https://example.com/?img=a.png", links: [] },
    { text: "not a scheme we fetch ftp://example.com/a.png or file:///a.png", links: [] },
    { text: "no links at all", links: [] },
  ])("$text", ({ text, links }) => {
    expect(imageLinksIn(text)).toEqual(links);
  });

  it(`takes at most ${MAX_IMAGE_LINKS}`, () => {
    const text = Array.from({ length: 6 }, (_, index) => `https://a.test/${index}.png`).join(" ");
    expect(imageLinksIn(text)).toHaveLength(MAX_IMAGE_LINKS);
  });

  it("writes the refusal notice in the style of the other system notices", () => {
    expect(imageLinkNotice("http://10.0.0.1/a.png", "it points to a private address")).toBe(
      "[System: The image at http://10.0.0.1/a.png was not fetched: it points to a private address.]",
    );
  });
});
