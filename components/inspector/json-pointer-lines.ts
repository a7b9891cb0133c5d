// Which lines of a body pretty-printed with `JSON.stringify(value, null, 2)` hold the value at a JSON Pointer, so
// the raw view can mark the bytes of an item. Each array element and object member starts on its own line there,
// and a value takes as many lines as its members plus its brackets: the range follows from counting. Pure.

function lineCount(value: unknown): number {
  if (Array.isArray(value))
    return value.length === 0 ? 1 : 2 + value.reduce((sum, entry) => sum + lineCount(entry), 0);
  if (value !== null && typeof value === "object") {
    const entries = Object.values(value);
    return entries.length === 0 ? 1 : 2 + entries.reduce((sum: number, entry) => sum + lineCount(entry), 0);
  }
  return 1;
}

/** The first and last line (0-based, inclusive) of the value at `pointer`; null when it does not resolve. */
export function pointerLineRange(document: unknown, pointer: string): { first: number; last: number } | null {
  if (pointer !== "" && !pointer.startsWith("/")) return null;
  let line = 0;
  let value = document;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) {
      const index = Number(key);
      if (!/^(0|[1-9][0-9]*)$/.test(key) || index >= value.length) return null;
      line += 1 + value.slice(0, index).reduce((sum: number, entry) => sum + lineCount(entry), 0);
      value = value[index];
    } else if (value !== null && typeof value === "object" && Object.hasOwn(value, key)) {
      const keys = Object.keys(value);
      const record = value as Record<string, unknown>;
      line += 1 + keys.slice(0, keys.indexOf(key)).reduce((sum, name) => sum + lineCount(record[name]), 0);
      value = record[key];
    } else return null;
  }
  return { first: line, last: line + lineCount(value) - 1 };
}
