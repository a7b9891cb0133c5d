// What text a client sends may be stored and shown: none that Postgres or JSON cannot hold (NUL, lone surrogates),
// and no name or title that shows nothing (one of zero-width spaces is as blank as an empty one). Pure, so the
// forms in the browser and every route on the server (the JSON reader, uploads, the auth routes) use one rule.

/** A UTF-16 half without its partner: no character, so no UTF-8 (and no Postgres text) can hold it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text the client sent that the app cannot store: NUL or a lone surrogate. Null when there is neither. */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL (\\u0000) characters";
  if (LONE_SURROGATE.test(text))
    return "must not contain a lone surrogate (half of a UTF-16 pair without the other half)";
  return null;
}

/**
 * Characters that draw nothing: white space and separators (\p{Z}, \p{White_Space}), control and format
 * characters (\p{Cc}, \p{Cf}: zero-width space and joiners, BOM, bidi marks), lone surrogates (\p{Cs}), the
 * default-ignorable ones (Hangul fillers, variation selectors, tags) and the blank Braille pattern, which fonts
 * draw as a space.
 */
const INVISIBLE = /[\p{Z}\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** The text has at least one character that shows: not only blanks, zero-width or format characters. */
export function hasVisibleCharacter(text: string): boolean {
  return text.replace(INVISIBLE, "").length > 0;
}
