import { AppError } from "@/lib/domain/errors";

const FORMATS = ["json", "jsonl"] as const;

/** `?format=json|jsonl` (json when absent). */
export const exportQuerySchema = {
  parse(url: string): { format: (typeof FORMATS)[number] } {
    const format = new URL(url).searchParams.get("format") ?? "json";
    if (!(FORMATS as readonly string[]).includes(format))
      throw new AppError("bad_request", `format must be json or jsonl, not "${format.slice(0, 40)}"`);
    return { format: format as (typeof FORMATS)[number] };
  },
};
