import { z } from "zod";
import { nonEmptyTextField } from "@/app/api/request-fields";

export const MAX_SUMMARY_CHARS = 20_000;

export const updateSummarySchema = z
  .object({
    content: nonEmptyTextField("content", MAX_SUMMARY_CHARS),
  })
  .strict();
