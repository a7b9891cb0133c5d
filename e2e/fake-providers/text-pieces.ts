// Splits content into the chunks a fake stream sends, on code points so no surrogate pair is torn apart.

export function splitIntoPieces(text: string, count: number): string[] {
  const codePoints = Array.from(text);
  if (codePoints.length === 0) return [];
  const pieceCount = Math.max(1, Math.min(count, codePoints.length));
  const pieces: string[] = [];
  for (let index = 0; index < pieceCount; index++) {
    const start = Math.floor((index * codePoints.length) / pieceCount);
    const end = Math.floor(((index + 1) * codePoints.length) / pieceCount);
    pieces.push(codePoints.slice(start, end).join(""));
  }
  return pieces;
}
