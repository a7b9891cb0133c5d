import { z } from "zod";

const USER_ID = /^[A-Za-z0-9_-]{1,100}$/;

const area = z
  .string({ error: "area must be text" })
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,49}$/, {
    error: "area must be a short lowercase name such as fact, preference or session_summary",
  });
const content = z
  .string({ error: "content must be text" })
  .trim()
  .min(1, { error: "content must not be empty" })
  .max(4_000, { error: "content must be at most 4000 characters" });
const active = z.boolean({ error: "active must be true or false" });

/** Who a memory belongs to follows from its scope: user → userId, persona → personaId, user_persona → both. */
export const createMemorySchema = z
  .object({
    scope: z.enum(["user", "persona", "user_persona"], {
      error: "scope must be one of: user, persona, user_persona",
    }),
    userId: z
      .string({ error: "userId must be a user id" })
      .regex(USER_ID, { error: "userId must be a user id" })
      .nullable()
      .default(null),
    personaId: z.uuid({ error: "personaId must be a persona id" }).nullable().default(null),
    area,
    content,
    active: active.default(true),
  })
  .strict()
  .superRefine((body, context) => {
    const needsUser = body.scope !== "persona";
    const needsPersona = body.scope !== "user";
    if (needsUser && !body.userId)
      context.addIssue({
        code: "custom",
        path: ["userId"],
        message: `a ${body.scope} memory needs a userId`,
      });
    if (!needsUser && body.userId)
      context.addIssue({ code: "custom", path: ["userId"], message: "a persona memory has no userId" });
    if (needsPersona && !body.personaId)
      context.addIssue({
        code: "custom",
        path: ["personaId"],
        message: `a ${body.scope} memory needs a personaId`,
      });
    if (!needsPersona && body.personaId)
      context.addIssue({ code: "custom", path: ["personaId"], message: "a user memory has no personaId" });
  });

export const updateMemorySchema = z
  .object({
    id: z.uuid({ error: "id must be a memory id" }),
    area: area.optional(),
    content: content.optional(),
    active: active.optional(),
  })
  .strict()
  .refine((body) => body.area !== undefined || body.content !== undefined || body.active !== undefined, {
    error: "Nothing to change: send area, content or active",
  });
