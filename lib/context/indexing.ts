// Reading an array at a position the caller has already bounded: a loop counter below the length, a position a
// search returned, a turn start recorded during a scan. The pipeline is type-checked with
// `noUncheckedIndexedAccess`, which types every such read `T | undefined`; these helpers state that the position is
// in range and fail loudly when it is not, so a broken invariant never sends `undefined` further down the pipeline.
// Where a position may really be out of range, the code checks for `undefined` itself instead.

/** The element at a position known to be in range. Throws a RangeError when it is not. */
export function elementAt<Element>(array: readonly Element[], index: number): Element {
  const element = array[index];
  if (element === undefined) throw outOfRange(index, array.length);
  return element;
}

/** A typed array's value at a position known to be in range (counts, flags, positions kept per item). */
export function valueAt(array: Float64Array | Uint8Array | Int32Array, index: number): number {
  const value = array[index];
  if (value === undefined) throw outOfRange(index, array.length);
  return value;
}

/** The first element of a list that is never empty (a run, a group, a turn). */
export function firstOf<Element>(array: readonly Element[]): Element {
  return elementAt(array, 0);
}

/** The last element of a list that is never empty. */
export function lastOf<Element>(array: readonly Element[]): Element {
  return elementAt(array, array.length - 1);
}

function outOfRange(index: number, length: number): RangeError {
  return new RangeError(`context pipeline: position ${index} is outside a list of ${length}`);
}
