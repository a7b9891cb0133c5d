// What a row id looks like (UUIDs, v7 for rows this app creates): one pattern for routes, pages and the UI.

const UUID_SOURCE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A whole value that is a UUID, in either case. */
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, "i");

/** `/api/attachments/<uuid>`, the id captured: the url of an uploaded file as the chat sends it. */
export const ATTACHMENT_URL_PATTERN = new RegExp(`^/api/attachments/(${UUID_SOURCE})$`, "i");

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
