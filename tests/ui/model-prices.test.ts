import { describe, expect, test } from "vitest";
import { priceDraftOf, pricesOf } from "@/components/admin/model-prices";

describe("a model's prices on its form", () => {
  test.each([
    ["unknown stays unknown", null, null],
    [
      "the three prices, no cache write",
      { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 },
      { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 },
    ],
    [
      "with a cache write",
      { inputPerMillion: 3, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, outputPerMillion: 15 },
      { inputPerMillion: 3, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75, outputPerMillion: 15 },
    ],
    [
      "free",
      { inputPerMillion: 0, cachedInputPerMillion: 0, outputPerMillion: 0 },
      { inputPerMillion: 0, cachedInputPerMillion: 0, outputPerMillion: 0 },
    ],
  ])("%s: a round trip through the form keeps them", (_name, stored, sent) => {
    expect(pricesOf(priceDraftOf(stored))).toEqual(sent);
  });

  test("a blank required price goes as null, for the API to name; all blank is unknown", () => {
    const draft = {
      ...priceDraftOf({ inputPerMillion: 1, cachedInputPerMillion: 0.5, outputPerMillion: 2 }),
    };
    expect(pricesOf({ ...draft, outputPerMillion: Number.NaN })).toEqual({
      inputPerMillion: 1,
      cachedInputPerMillion: 0.5,
      outputPerMillion: null,
    });
    expect(pricesOf(priceDraftOf(null))).toBeNull();
  });
});
