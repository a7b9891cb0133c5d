// A server value as the browser receives it after JSON: dates become ISO strings, the rest keeps its shape. The
// client's response types are the server's (lib/api/responses.ts) passed through this.

export type AsJson<Value> = Value extends Date
  ? string
  : Value extends readonly (infer Element)[]
    ? AsJson<Element>[]
    : Value extends object
      ? { [Key in keyof Value]: AsJson<Value[Key]> }
      : Value;
