import { z } from "zod";

/** `POST /api/conversations/:id/participants`: invite an account by its email. */
export const inviteSchema = z
  .object({
    email: z.email({ error: "email must be an email address" }).max(320, { error: "email is too long" }),
  })
  .strict();

/** `PATCH /api/conversations/:id/participants/:userId`: the invited user accepts. */
export const invitationAnswerSchema = z
  .object({ status: z.literal("accepted", { error: 'status must be "accepted" (decline with DELETE)' }) })
  .strict();
