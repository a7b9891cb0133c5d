// The clock the pipeline's stages are timed with (the pipeline itself reads no clock: the caller passes one), so
// every attempt records how long each stage took.

import "server-only";

export const stageClock = (): number => performance.now();
