// The one span of an HTTP `Range` request this app serves (attachments).

import "server-only";

export type ByteRange = { start: number; end: number };

/**
 * One span of a `Range: bytes=…` header against a file of `size` bytes: the span, "all" for a header to ignore
 * (absent, several spans, another unit: RFC 9110 lets a server send the whole file), or "unsatisfiable".
 */
export function parseRange(header: string | null, size: number): ByteRange | "all" | "unsatisfiable" {
  if (!header) return "all";
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return "all";
  const [, first, last] = match;
  if (first === "" && last === "") return "all";
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}
