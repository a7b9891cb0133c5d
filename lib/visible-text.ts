// Whether text shows anything: names and titles are shown to people, so one of zero-width spaces is as blank as
// an empty one. Pure, so the forms in the browser and the routes on the server use the same rule.

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
