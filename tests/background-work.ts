// The work an answered request may leave running in this process (an experiment, a conversation's title, the live
// events those and the turn publish), waited for by the same settle points a shutdown uses (lib/shutdown.ts): a
// test that counts rows or statements after a request waits for it, not for the clock.
import { settleTitleGenerations } from "@/lib/chat/generated/title";
import { settleExperiments } from "@/lib/lab/run-experiment";
import { publishingSettled } from "@/lib/live/publish";

/** Resolves once the experiments, titles and live events started so far have ended (titles publish events). */
export async function settleBackgroundWork(): Promise<void> {
  await settleExperiments();
  await settleTitleGenerations();
  await publishingSettled();
}
