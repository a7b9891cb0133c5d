import { z } from "zod";

const ONE_FILE = "Send one file in a form field named file.";

/** The multipart form of POST /attachments: exactly one `file` field, and it must be a file, not text. */
export const uploadFormSchema = z.object({
  file: z
    .array(z.instanceof(File, { error: "must be a file, not a text field" }), { error: ONE_FILE })
    .length(1, { error: ONE_FILE })
    .transform(([file]) => ({ file, filename: cleanFilename(file.name) })),
});

/**
 * The name is only shown back to people, never used as a path or to decide the type; still, keep it printable:
 * the last path segment, no control characters, at most 255 characters, and null when nothing is left.
 */
export function cleanFilename(name: string): string | null {
  const lastSegment = name.split(/[/\\]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const printable = lastSegment.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return printable ? Array.from(printable).slice(0, 255).join("") : null;
}
