// Tolerant readers for fields of untrusted JSON request bodies.

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The entries of a message list (`messages`, `input`, `contents`) whose `role` is "user", in order. */
export function userEntries(list: unknown): Record<string, unknown>[] {
  return asArray(list)
    .map(asRecord)
    .filter((entry): entry is Record<string, unknown> => entry?.role === "user");
}

/** Joins the `text` of parts such as `{ type: "text", text }`; `partTypes` limits which parts count. */
export function joinTextParts(parts: unknown, partTypes?: readonly string[]): string {
  if (typeof parts === "string") return parts;
  return asArray(parts)
    .map(asRecord)
    .filter((part) => part !== undefined)
    .filter((part) => partTypes === undefined || partTypes.includes(String(part.type)))
    .map((part) => asString(part.text) ?? "")
    .join("");
}
