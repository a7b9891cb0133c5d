// GET /api/attachments/:id with Range: one span is a 206 with exactly those bytes (read from the database in
// slices, never the whole blob at once); several spans or another unit get the whole file; a span outside the
// file is a 416 in the app's error format. Large files come back byte for byte across slice boundaries.
import { beforeAll, describe, expect, test } from "vitest";
import * as attachmentRoute from "@/app/api/attachments/[id]/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { parseRange } from "@/lib/api/byte-range";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { makePng } from "../fixtures/attachments";

let ada: TestUser;
let attachmentId: string;
let image: Buffer;

beforeAll(async () => {
  ada = await signUp("Ada");
  const created = await call(conversationsRoute.POST, "/api/conversations", { user: ada, body: {} });
  const conversationId = ((await created.json()) as { id: string }).id;
  image = makePng(400, 7); // ~480 KB uncompressed: several slices
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(image)]), "big.png");
  const uploaded = await call(uploadRoute.POST, `/api/conversations/${conversationId}/attachments`, {
    user: ada,
    params: { id: conversationId },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  attachmentId = ((await uploaded.json()) as { attachment: { id: string } }).attachment.id;
});

function download(range?: string) {
  return call(attachmentRoute.GET, `/api/attachments/${attachmentId}`, {
    user: ada,
    params: { id: attachmentId },
    headers: range ? { range } : {},
  });
}

describe("attachment ranges", () => {
  test("the whole file, across slice boundaries, with Accept-Ranges", async () => {
    const response = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await response.arrayBuffer()).equals(image)).toBe(true);
  });

  test.each([
    ["bytes=0-0", 0, 0],
    ["bytes=1-2", 1, 2],
    ["bytes=2-4", 2, 4],
    ["bytes=100-", 100, -1],
    ["bytes=-10", -10, -1],
    ["bytes=196600-196700", 196600, 196700],
    ["bytes=5-99999999", 5, -1],
  ])("%s: 206 with exactly those bytes", async (range, from, to) => {
    const start = from < 0 ? image.length + from : from;
    const end = to < 0 ? image.length - 1 : to;
    const response = await download(range);
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end}/${image.length}`);
    expect(response.headers.get("content-length")).toBe(String(end - start + 1));
    expect(Buffer.from(await response.arrayBuffer()).equals(image.subarray(start, end + 1))).toBe(true);
  });

  test.each(["bytes=0-1,5-6", "items=0-1", "bytes=x-y"])("%s: ignored, the whole file", async (range) => {
    const response = await download(range);
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(image.length);
  });

  test.each(["bytes=999999999-", "bytes=-0"])("%s: 416 that says the size", async (range) => {
    const response = await download(range);
    expect(response.headers.get("content-range")).toBe(`bytes */${image.length}`);
    expect(await expectError(response, 416, "range_not_satisfiable")).toMatch(String(image.length));
  });

  test("parseRange in the abstract", () => {
    expect(parseRange(null, 10)).toBe("all");
    expect(parseRange("bytes=3-1", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=-20", 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
  });
});
