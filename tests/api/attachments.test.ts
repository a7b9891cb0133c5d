// Image upload and serving: POST /api/conversations/:id/attachments stores an image whose type is read
// from its bytes; GET /api/attachments/:id serves it only to people who may read the conversation.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import * as attachmentRoute from "@/app/api/attachments/[id]/route";
import * as uploadRoute from "@/app/api/conversations/[id]/attachments/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import { getDb } from "@/db/client";
import { attachmentBlobs, attachments, participants } from "@/db/schema";
import type { AttachmentView } from "@/lib/media/attachment-view";
import { TEST_IMAGES } from "@/tests/fixtures/images";
import { call, expectError, signUp, type TestUser } from "../api-client";
import { makePng } from "../fixtures/attachments";

const MB = 1024 * 1024;

let ada: TestUser; // owns the conversation
let bob: TestUser; // a participant of it
let eve: TestUser; // neither
let conversationId: string;

beforeAll(async () => {
  [ada, bob, eve] = await Promise.all([signUp("Ada"), signUp("Bob"), signUp("Eve")]);
  conversationId = await createConversation(ada);
  const db = await getDb();
  await db.insert(participants).values({ conversationId, userId: bob.id, role: "member" });
});

async function createConversation(user: TestUser): Promise<string> {
  const response = await call(conversationsRoute.POST, "/api/conversations", { user, body: {} });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function fileForm(bytes: Uint8Array, filename: string, type = ""): FormData {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

function upload(
  user: TestUser | null,
  id: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<Response> {
  return call(uploadRoute.POST, `/api/conversations/${id}/attachments`, {
    user,
    method: "POST",
    params: { id },
    body,
    headers,
  });
}

function download(user: TestUser | null, id: string): Promise<Response> {
  return call(attachmentRoute.GET, `/api/attachments/${id}`, { user, params: { id } });
}

type UploadedView = AttachmentView;

async function uploaded(response: Response): Promise<UploadedView> {
  if (response.status !== 201)
    throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { attachment: UploadedView }).attachment;
}

async function attachmentCount(id: string): Promise<number> {
  const db = await getDb();
  return (await db.select().from(attachments).where(eq(attachments.conversationId, id))).length;
}

describe("POST /api/conversations/:id/attachments", () => {
  const images = [
    { name: "JPEG", bytes: TEST_IMAGES.jpegBaseline, filename: "photo.jpg", mime: "image/jpeg" },
    { name: "PNG", bytes: TEST_IMAGES.png, filename: "pixels.png", mime: "image/png" },
    { name: "GIF", bytes: TEST_IMAGES.gif, filename: "loop.gif", mime: "image/gif" },
    { name: "WebP", bytes: TEST_IMAGES.webpLossy, filename: "small.webp", mime: "image/webp" },
  ];

  test.each(images)(
    "stores a $name, with type and size read from its bytes",
    async ({ bytes, filename, mime }) => {
      const attachment = await uploaded(await upload(ada, conversationId, fileForm(bytes, filename, mime)));
      expect(attachment).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: "image",
        mime,
        filename,
        sizeBytes: bytes.length,
        width: 3,
        height: 2,
        url: `/api/attachments/${attachment.id}`,
      });
      const db = await getDb();
      const [row] = await db.select().from(attachments).where(eq(attachments.id, attachment.id));
      expect(row).toMatchObject({
        conversationId,
        messageId: null,
        uploadedBy: ada.id,
        storageKey: `db:${row.sha256}`,
      });
    },
  );

  test("the same bytes twice are two attachments over one stored blob", async () => {
    const png = makePng(8, 4242);
    const first = await uploaded(await upload(ada, conversationId, fileForm(png, "a.png", "image/png")));
    const second = await uploaded(await upload(bob, conversationId, fileForm(png, "b.png", "image/png")));
    expect(second.id).not.toBe(first.id);
    const db = await getDb();
    const rows = await db.select().from(attachments).where(eq(attachments.id, first.id));
    const sameBytes = await db
      .select()
      .from(attachments)
      .where(and(eq(attachments.conversationId, conversationId), eq(attachments.sha256, rows[0].sha256)));
    expect(sameBytes.map((row) => row.id).sort()).toEqual([first.id, second.id].sort());
    const blobs = await db
      .select()
      .from(attachmentBlobs)
      .where(eq(attachmentBlobs.storageKey, rows[0].storageKey));
    expect(blobs).toHaveLength(1);
    expect(Buffer.from(blobs[0].data, "base64").equals(png)).toBe(true);
  });

  test("the type comes from the bytes: a PNG declared as image/jpeg and named .jpg is stored as image/png", async () => {
    const attachment = await uploaded(
      await upload(ada, conversationId, fileForm(TEST_IMAGES.png, "holiday.jpg", "image/jpeg")),
    );
    expect(attachment.mime).toBe("image/png");
    expect(attachment.filename).toBe("holiday.jpg");
  });

  test("a filename is kept printable: last path segment, no control characters", async () => {
    const attachment = await uploaded(
      await upload(
        ada,
        conversationId,
        fileForm(TEST_IMAGES.gif, "..\\..\\etc/pass\u0007wd.gif", "image/gif"),
      ),
    );
    expect(attachment.filename).toBe("passwd.gif");
  });

  describe("refusals: a clear 4xx, and nothing stored", () => {
    const pngHeader = TEST_IMAGES.png.subarray(0, 24);
    const padded = (size: number) => Buffer.concat([pngHeader, Buffer.alloc(size - pngHeader.length)]);
    const twoFiles = () => {
      const form = fileForm(TEST_IMAGES.png, "one.png");
      form.append("file", new Blob([TEST_IMAGES.gif]), "two.gif");
      return form;
    };
    const textField = () => {
      const form = new FormData();
      form.append("file", "not a file");
      return form;
    };
    const otherField = () => {
      const form = new FormData();
      form.append("image", new Blob([TEST_IMAGES.png]), "pixels.png");
      return form;
    };
    const cases: Array<{
      name: string;
      body: () => unknown;
      headers?: Record<string, string>;
      status: number;
      code: string;
      message: RegExp;
    }> = [
      {
        name: "SVG",
        body: () => fileForm(TEST_IMAGES.svg, "logo.svg", "image/svg+xml"),
        status: 415,
        code: "unsupported_media_type",
        message: /JPEG, PNG, GIF or WebP/,
      },
      {
        name: "a text file named .png and declared image/png",
        body: () => fileForm(Buffer.from("just some words"), "fake.png", "image/png"),
        status: 415,
        code: "unsupported_media_type",
        message: /JPEG, PNG, GIF or WebP/,
      },
      {
        name: "an 11 MB PNG (over the image limit, refused by its kind's limit)",
        body: () => fileForm(padded(11 * MB), "huge.png", "image/png"),
        status: 413,
        code: "payload_too_large",
        message: /image is larger than 10 MB/,
      },
      {
        name: "a PNG one byte over 10 MB (refused by its real size)",
        body: () => fileForm(padded(10 * MB + 1), "just-over.png", "image/png"),
        status: 413,
        code: "payload_too_large",
        message: /image is larger than 10 MB/,
      },
      {
        name: "a declared content-length over the limit (refused before reading)",
        body: () => fileForm(TEST_IMAGES.png, "small.png", "image/png"),
        headers: { "content-length": String(30 * MB) },
        status: 413,
        code: "payload_too_large",
        message: /larger than 20 MB, the upload limit/,
      },
      {
        name: "no file field",
        body: otherField,
        status: 400,
        code: "bad_request",
        message: /field named file/,
      },
      { name: "two files", body: twoFiles, status: 400, code: "bad_request", message: /one file/ },
      {
        name: "file sent as text",
        body: textField,
        status: 400,
        code: "bad_request",
        message: /must be a file/,
      },
      {
        name: "an empty file",
        body: () => fileForm(Buffer.alloc(0), "empty.png"),
        status: 400,
        code: "bad_request",
        message: /empty/,
      },
      {
        name: "a JSON body",
        body: () => ({ file: "x" }),
        status: 415,
        code: "unsupported_media_type",
        message: /multipart/,
      },
      {
        name: "a broken multipart body",
        body: () => "--nope\r\nthis is not multipart",
        headers: { "content-type": "multipart/form-data; boundary=abc" },
        status: 400,
        code: "bad_request",
        message: /not valid multipart/,
      },
    ];

    let emptyConversation: string;
    beforeAll(async () => {
      emptyConversation = await createConversation(ada);
    });

    test.each(cases)("$name: $status", async ({ body, headers, status, code, message }) => {
      const response = await upload(ada, emptyConversation, body(), headers);
      expect(await expectError(response, status, code)).toMatch(message);
      expect(await attachmentCount(emptyConversation)).toBe(0);
    });
  });

  test("another user's conversation is 404, as on every conversation route, and nothing is stored", async () => {
    const before = await attachmentCount(conversationId);
    const message = await expectError(
      await upload(eve, conversationId, fileForm(TEST_IMAGES.png, "x.png")),
      404,
      "not_found",
    );
    expect(message).toBe("Conversation not found");
    await expectError(await upload(eve, "not-an-id", fileForm(TEST_IMAGES.png, "x.png")), 404, "not_found");
    expect(await attachmentCount(conversationId)).toBe(before);
  });

  test("no session is 401", async () => {
    await expectError(
      await upload(null, conversationId, fileForm(TEST_IMAGES.png, "x.png")),
      401,
      "unauthorized",
    );
  });
});

describe("GET /api/attachments/:id", () => {
  let attachment: UploadedView;
  const bytes = TEST_IMAGES.webpLossless;

  beforeAll(async () => {
    // Uploaded by a participant who is not the owner, so "uploader" and "owner" are different people.
    attachment = await uploaded(await upload(bob, conversationId, fileForm(bytes, "lossless.webp")));
  });

  test.each([
    { who: "the uploader", user: () => bob },
    { who: "the conversation's owner", user: () => ada },
  ])("serves the exact bytes and safe headers to $who", async ({ user }) => {
    const response = await download(user(), attachment.id);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "image/webp",
      "content-length": String(bytes.length),
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=31536000, immutable",
      "content-disposition": "inline",
    });
  });

  test("a stranger, an unknown id and a bad id get the same 404", async () => {
    const stranger = await download(eve, attachment.id);
    const unknown = await download(eve, "0190aaaa-0000-7000-8000-000000000000");
    const bad = await download(eve, "not-an-id");
    const bodies = await Promise.all(
      [stranger, unknown, bad].map((response) => expectError(response, 404, "not_found")),
    );
    expect(new Set(bodies)).toEqual(new Set(["Attachment not found"]));
  });

  test("no session is 401", async () => {
    await expectError(await download(null, attachment.id), 401, "unauthorized");
  });
});
