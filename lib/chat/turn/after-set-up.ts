// Work a turn needs soon but not before its model call (the reply's rows, the user message's live event) is made
// once the set-up has run: with its reads done, a turn's set-up runs on to the provider request within one turn of
// the event loop, and a setImmediate comes after that, so this work's CPU no longer delays the request. Where the
// set-up still waits on I/O, the work simply runs then; nothing depends on which comes first.

import "server-only";

/** Resolves once the work already queued in this turn of the event loop has run. */
export function afterSetUp(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
