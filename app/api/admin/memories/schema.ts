import { z } from "zod";
import { nonEmptyTextField } from "@/app/api/request-fields";

const USER_ID = /^[A-Za-z0-9_-]{1,100}$/;

const area = z
  .string({ error: "area must be text" })
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,49}$/, {
    error: "area must be a short lowercase name such as fact, preference or session_summary",
  });
const content = nonEmptyTextField("content", 4_000);
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
    // A user memory names a user, a persona memory a persona, a user × persona memory both; none names more.
    const owners = [
      { key: "userId", needed: body.scope !== "persona", given: body.userId, without: "persona" },
      { key: "personaId", needed: body.scope !== "user", given: body.personaId, without: "user" },
    ] as const;
    for (const { key, needed, given, without } of owners) {
      if (needed && !given)
        context.addIssue({ code: "custom", path: [key], message: `a ${body.scope} memory needs a ${key}` });
      if (!needed && given)
        context.addIssue({ code: "custom", path: [key], message: `a ${without} memory has no ${key}` });
    }
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
