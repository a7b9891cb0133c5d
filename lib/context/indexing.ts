// Reading a list at a position the caller has already bounded (a position a search returned, a turn start
// recorded during a scan, the last of a list known not to be empty). The pipeline is type-checked with
// `noUncheckedIndexedAccess`, which types every such read `T | undefined`; these helpers state that the position
// is in range and fail loudly when it is not, so a broken invariant never sends `undefined` further down.
//
// They are for single reads. A loop over every item narrows in place instead (`const item = items[index]; if
// (item === undefined) continue;`, or `for … of`): a shared helper called per element of every list costs the
// pipeline a measurable share of its time (its reads are not specialised to one kind of list the way an inline
// read is). Where a position may really be out of range, the code checks for `undefined` where it reads.

/** The element at a position known to be in range. Throws a RangeError when it is not. */
export function elementAt<Element>(array: readonly Element[], index: number): Element {
  const element = array[index];
  if (element === undefined) {
    throw new RangeError(`context pipeline: position ${index} is outside a list of ${array.length}`);
  }
  return element;
}

/** The first element of a list that is never empty (a run, a group, a turn). */
export function firstOf<Element>(array: readonly Element[]): Element {
  return elementAt(array, 0);
}

/** The last element of a list that is never empty. */
export function lastOf<Element>(array: readonly Element[]): Element {
  return elementAt(array, array.length - 1);
}
