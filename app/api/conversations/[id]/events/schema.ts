import { z } from "zod";

const eventId = z
  .string()
  .regex(/^\d{1,15}$/, { error: "an event id is a whole number of at most 15 digits" })
  .transform(Number);

export const liveEventsQuerySchema = z.object({
  /** The last event id the reader has (the Last-Event-ID header, which a reconnecting browser sends, wins). */
  after: eventId.optional(),
  /** "0": send what is stored after `after` and end, instead of following the conversation. */
  follow: z.enum(["0", "1"], { error: 'follow must be "0" or "1"' }).default("1"),
});
