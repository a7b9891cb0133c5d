// The JSON reader behind readJson: one pass over the decoded text checks the syntax and every limit before
// JSON.parse allocates anything, so a body costs time linear in its length and memory bounded by its limits.
// What it refuses:
// - nesting deeper than `maxDepth` (400: deeper costs stack in the validators for nothing),
// - more than `maxElements` values (413: each value costs far more memory parsed than its text),
// - a string or key longer than `maxStringChars` (413),
// - NUL, and a lone surrogate (a UTF-16 half with no partner), in a string or a key (400: Postgres cannot store
//   NUL in text, and a lone surrogate is no character at all: it cannot be encoded as UTF-8, so it cannot be stored
//   or sent on),
// - a number too large to be one (400: `1e400` would quietly become Infinity, then null),
// - anything that is not JSON (400).
// The scan keeps no copy of anything: a stack of at most `maxDepth` frames holds where it is (the index in an
// array, the offsets of the current key in an object), and the path is spelt out only for an error message.

import "server-only";
import { AppError } from "@/lib/domain/errors";

export interface JsonLimits {
  /** Containers inside containers: `[[]]` is 2 deep. */
  maxDepth: number;
  /** Values of any kind, the root, containers and the scalars in them alike. */
  maxElements: number;
  /** UTF-16 code units of one string or key, as decoded (an escape such as `\u00e9` is one). */
  maxStringChars: number;
}

/** The value the text holds, once it is within `limits`; an AppError naming the first problem otherwise. */
export function parseJsonWithin(text: string, limits: JsonLimits): unknown {
  new JsonScan(text, limits).run();
  return JSON.parse(text);
}

const ARRAY = 1;
const OBJECT = 2;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_U = 0x75;

/** The characters in a string that need a look: the quote, backslash, control characters and surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON strings may not hold raw
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/** Escapes after a backslash that stand for one character, other than `\u`. */
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** Numbers up to this many characters, with no exponent, are finite whatever their digits. */
const SURELY_FINITE_NUMBER_CHARS = 300;

/** Keys longer than this are cut short in error messages. */
const SHOWN_KEY_CHARS = 60;

class JsonScan {
  private position = 0;
  private depth = 0;
  private elements = 0;
  /** Per open container (innermost at `depth - 1`): its kind, the index of the current element of an array, the
   * source offsets (quotes included) of the current key of an object. */
  private readonly kinds: Uint8Array;
  private readonly indexes: Int32Array;
  private readonly keyStarts: Int32Array;
  private readonly keyEnds: Int32Array;

  constructor(
    private readonly text: string,
    private readonly limits: JsonLimits,
  ) {
    this.kinds = new Uint8Array(limits.maxDepth);
    this.indexes = new Int32Array(limits.maxDepth);
    this.keyStarts = new Int32Array(limits.maxDepth);
    this.keyEnds = new Int32Array(limits.maxDepth);
  }

  run(): void {
    const { text } = this;
    this.skipWhitespace();
    for (;;) {
      // A value starts here.
      this.countElement();
      const code = text.charCodeAt(this.position);
      if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.open(code === OPEN_BRACE ? OBJECT : ARRAY);
        this.position++;
        this.skipWhitespace();
        const next = text.charCodeAt(this.position);
        if (code === OPEN_BRACKET && next !== CLOSE_BRACKET) continue;
        if (code === OPEN_BRACE && next !== CLOSE_BRACE) {
          this.readKey();
          continue;
        }
        this.position++;
        this.depth--;
      } else if (code === QUOTE) {
        this.readString(false);
      } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
        this.readNumber();
      } else if (!this.readLiteral()) {
        throw this.syntaxError();
      }
      // A value ended: what follows it closes its container or starts the next element.
      for (;;) {
        this.skipWhitespace();
        if (this.depth === 0) {
          if (this.position < text.length) throw this.syntaxError();
          return;
        }
        const kind = this.kinds[this.depth - 1];
        const next = text.charCodeAt(this.position);
        if (next === COMMA) {
          this.position++;
          this.skipWhitespace();
          if (kind === ARRAY) this.indexes[this.depth - 1]++;
          else this.readKey();
          break;
        }
        if ((kind === ARRAY && next === CLOSE_BRACKET) || (kind === OBJECT && next === CLOSE_BRACE)) {
          this.position++;
          this.depth--;
          continue;
        }
        throw this.syntaxError();
      }
    }
  }

  private countElement(): void {
    if (++this.elements > this.limits.maxElements) {
      throw new AppError(
        "payload_too_large",
        `The request body has more than ${this.limits.maxElements} JSON values (numbers, strings, lists, objects and the like); this route takes at most that many.`,
      );
    }
  }

  private open(kind: number): void {
    if (this.depth >= this.limits.maxDepth) {
      throw new AppError(
        "bad_request",
        `The request body is nested more than ${this.limits.maxDepth} levels deep.`,
      );
    }
    this.kinds[this.depth] = kind;
    this.indexes[this.depth] = 0;
    this.keyStarts[this.depth] = -1;
    this.keyEnds[this.depth] = -1;
    this.depth++;
  }

  /** A key and its colon, leaving the position at the value. */
  private readKey(): void {
    if (this.text.charCodeAt(this.position) !== QUOTE) throw this.syntaxError();
    const frame = this.depth - 1;
    this.keyStarts[frame] = this.position;
    this.keyEnds[frame] = -1;
    this.readString(true);
    this.keyEnds[frame] = this.position;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.position) !== COLON) throw this.syntaxError();
    this.position++;
    this.skipWhitespace();
  }

  /** A string from its opening quote to just past its closing one, checking length, NUL and surrogates. */
  private readString(isKey: boolean): void {
    const { text } = this;
    const start = this.position;
    this.position++;
    let length = 0;
    /** A high surrogate was the last code unit: the next must be a low one. */
    let pendingHigh = false;
    for (;;) {
      PLAIN_RUN.lastIndex = this.position;
      PLAIN_RUN.test(text);
      const run = PLAIN_RUN.lastIndex - this.position;
      if (run > 0) {
        if (pendingHigh) throw this.textError(isKey, start, "lone surrogate");
        length += run;
        this.position += run;
        if (length > this.limits.maxStringChars) throw this.textError(isKey, start, "too long");
      }
      if (this.position >= text.length) throw this.syntaxError();
      let unit = text.charCodeAt(this.position);
      if (unit === QUOTE) {
        if (pendingHigh) throw this.textError(isKey, start, "lone surrogate");
        this.position++;
        break;
      }
      if (unit < 0x20) throw this.syntaxError();
      if (unit === BACKSLASH) {
        const escaped = text.charCodeAt(this.position + 1);
        if (escaped === LOWER_U) {
          unit = this.hexUnit(this.position + 2);
          if (unit < 0) throw this.syntaxError();
          this.position += 6;
          if (unit === 0) throw this.textError(isKey, start, "NUL");
        } else if (SIMPLE_ESCAPES.has(escaped)) {
          unit = escaped;
          this.position += 2;
        } else {
          throw this.syntaxError();
        }
      } else {
        this.position++;
      }
      if (unit >= 0xd800 && unit <= 0xdbff) {
        if (pendingHigh) throw this.textError(isKey, start, "lone surrogate");
        pendingHigh = true;
      } else if (unit >= 0xdc00 && unit <= 0xdfff) {
        if (!pendingHigh) throw this.textError(isKey, start, "lone surrogate");
        pendingHigh = false;
      } else if (pendingHigh) {
        throw this.textError(isKey, start, "lone surrogate");
      }
      length++;
      if (length > this.limits.maxStringChars) throw this.textError(isKey, start, "too long");
    }
  }

  /** The code unit four hex digits at `at` stand for; -1 when they are not four hex digits. */
  private hexUnit(at: number): number {
    let value = 0;
    for (let offset = 0; offset < 4; offset++) {
      const code = this.text.charCodeAt(at + offset);
      const digit =
        code >= ZERO && code <= NINE
          ? code - ZERO
          : (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66
            ? (code | 0x20) - 0x61 + 10
            : -1;
      if (digit < 0) return -1;
      value = value * 16 + digit;
    }
    return value;
  }

  /** -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, and finite. */
  private readNumber(): void {
    const { text } = this;
    const start = this.position;
    if (text.charCodeAt(this.position) === MINUS) this.position++;
    const first = text.charCodeAt(this.position);
    if (first === ZERO) this.position++;
    else if (!this.readDigits()) throw this.syntaxError();
    if (text.charCodeAt(this.position) === DOT) {
      this.position++;
      if (!this.readDigits()) throw this.syntaxError();
    }
    let hasExponent = false;
    const exponent = text.charCodeAt(this.position);
    if (exponent === LOWER_E || exponent === UPPER_E) {
      hasExponent = true;
      this.position++;
      const sign = text.charCodeAt(this.position);
      if (sign === PLUS || sign === MINUS) this.position++;
      if (!this.readDigits()) throw this.syntaxError();
    }
    if (hasExponent || this.position - start > SURELY_FINITE_NUMBER_CHARS) {
      const written = text.slice(start, this.position);
      if (!Number.isFinite(Number(written))) {
        throw new AppError(
          "bad_request",
          `${this.where()}the number ${written.length > 40 ? `${written.slice(0, 40)}…` : written} is too large to be one.`,
        );
      }
    }
  }

  private readDigits(): boolean {
    const start = this.position;
    for (;;) {
      const code = this.text.charCodeAt(this.position);
      // Past the end the code is NaN, which is no digit either.
      if (!(code >= ZERO && code <= NINE)) break;
      this.position++;
    }
    return this.position > start;
  }

  private readLiteral(): boolean {
    for (const literal of ["true", "false", "null"]) {
      if (this.text.startsWith(literal, this.position)) {
        this.position += literal.length;
        return true;
      }
    }
    return false;
  }

  private skipWhitespace(): void {
    const { text } = this;
    for (;;) {
      const code = text.charCodeAt(this.position);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
      this.position++;
    }
  }

  private syntaxError(): AppError {
    const ended = this.position >= this.text.length;
    return new AppError(
      "invalid_json",
      `The request body is not valid JSON: ${ended ? "it ends too soon" : `unexpected ${JSON.stringify(this.text.charAt(this.position))} at character ${this.position + 1}`}.`,
    );
  }

  private textError(isKey: boolean, start: number, problem: "NUL" | "lone surrogate" | "too long"): AppError {
    // A key's own problem is named at the key: its path is the enclosing one and the key (as far as it reads).
    const where = isKey ? this.where(this.keyShown(start)) : this.where();
    const what = isKey ? "a key" : "text";
    if (problem === "too long") {
      return new AppError(
        "payload_too_large",
        `${where}${what} is longer than ${this.limits.maxStringChars} characters, the most this route takes.`,
      );
    }
    if (problem === "NUL")
      return new AppError("bad_request", `${where}${what} must not contain NUL (\\u0000) characters.`);
    return new AppError(
      "bad_request",
      `${where}${what} must not contain a lone surrogate (half of a UTF-16 pair without the other half, such as \\ud800): it is not a character.`,
    );
  }

  /** The path to the value being read, as `a.b.0: `, or nothing at the root. */
  private where(lastKey?: string): string {
    const parts: string[] = [];
    for (let frame = 0; frame < this.depth; frame++) {
      if (this.kinds[frame] === ARRAY) parts.push(String(this.indexes[frame]));
      else if (frame === this.depth - 1 && lastKey !== undefined) parts.push(lastKey);
      else if (this.keyEnds[frame] > 0) parts.push(this.keyShown(this.keyStarts[frame], this.keyEnds[frame]));
    }
    return parts.length ? `${parts.join(".")}: ` : "";
  }

  /** A key as it reads (escapes decoded, NUL and lone surrogates shown escaped), cut short if long. */
  private keyShown(start: number, end?: number): string {
    const raw = this.text.slice(
      start + 1,
      end === undefined ? Math.min(this.position, start + 1 + SHOWN_KEY_CHARS * 6) : end - 1,
    );
    let decoded: string;
    try {
      decoded = JSON.parse(`"${raw.replace(/\\u?[0-9a-fA-F]{0,3}$|\\$/, "")}"`);
    } catch {
      decoded = raw;
    }
    const shown = decoded.replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what must be shown escaped
      /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    return shown.length > SHOWN_KEY_CHARS ? `${shown.slice(0, SHOWN_KEY_CHARS)}…` : shown;
  }
}
