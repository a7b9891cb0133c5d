// Reads a multipart upload the way readJson reads JSON: the declared size first, then the real size while the
// body streams in (a missing or false content-length cannot push more than the cap into memory), then the
// multipart syntax, then the form's schema; each failure a 4xx that says which.

import "server-only";
import type { z } from "zod";
import { readBodyUpTo } from "@/lib/api/read-body";
import { AppError } from "@/lib/domain/errors";
import { unstorableTextProblem } from "@/lib/text-rules";

/** The largest file an upload may carry. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Room for the boundaries and part headers around the file, so a file of exactly the limit still fits. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export function uploadTooLarge(maxBytes = MAX_UPLOAD_BYTES): AppError {
  return new AppError(
    "payload_too_large",
    `The file is larger than ${formatMegabytes(maxBytes)}, the upload limit.`,
  );
}

export async function readUploadForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  { maxFileBytes = MAX_UPLOAD_BYTES }: { maxFileBytes?: number } = {},
): Promise<z.infer<Schema>> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    await request.body?.cancel().catch(() => {});
    throw new AppError(
      "unsupported_media_type",
      "Send the file as multipart/form-data, in a field named file.",
    );
  }
  const maxBodyBytes = maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  const body = await readBodyUpTo(request, maxBodyBytes, () => uploadTooLarge(maxFileBytes));
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new AppError("bad_request", "The request body is not valid multipart/form-data.");
  }
  // Field names, values and file names become stored text: NUL and lone surrogates are a 400 here. (The form is
  // decoded from UTF-8, which has no lone surrogates, but a file name's percent-encoded `filename*` need not be.)
  for (const [name, value] of form.entries()) {
    const text = typeof value === "string" ? value : value.name;
    const problem = unstorableTextProblem(name) ?? unstorableTextProblem(text);
    if (problem) {
      const shownName = name.replaceAll("\u0000", "").replace(/[\ud800-\udfff]/g, "");
      throw new AppError("bad_request", `${shownName}: text ${problem}.`);
    }
  }
  const result = schema.safeParse(formFields(form));
  if (!result.success) {
    const issue = result.error.issues[0];
    // Form fields are flat: name the field, not the index of its value.
    const where = issue.path.length ? `${String(issue.path[0])}: ` : "";
    throw new AppError("bad_request", `${where}${issue.message}`);
  }
  return result.data;
}

/** Every field as a list of its values, so a schema can say "exactly one" as easily as "at least one". */
function formFields(form: FormData): Record<string, FormDataEntryValue[]> {
  const fields: Record<string, FormDataEntryValue[]> = {};
  for (const [name, value] of form.entries()) {
    fields[name] = [...(fields[name] ?? []), value];
  }
  return fields;
}

function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
