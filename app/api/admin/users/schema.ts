import { z } from "zod";

export const updateUserSchema = z
  .object({
    role: z.enum(["admin", "user"], { error: "role must be one of: admin, user" }),
  })
  .strict();
