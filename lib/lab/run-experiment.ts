// An experiment's background job (docs/lab.md): for each conversation of the dataset, the next turn is built twice
// by the preview's own code (previewTurn), as today and with the candidate, measured and diffed; nothing is sent
// unless `live`, which also sends both through the replay machinery. It runs in this process after the POST has
// answered, a few conversations at a time, and stores rows in batches, each batch moving the progress.

import "server-only";
import type { Database } from "@/db/client";
import {
  lastReplyRequests,
  type ResultRowToStore,
  setExperimentStatus,
  storeExperimentRows,
} from "@/db/experiment-queries";
import { listModels } from "@/db/model-queries";
import type { Experiment, Model, Persona } from "@/db/schema";
import type { SessionUser } from "@/lib/api/route";
import { openReadableAttempt, replayAttempt } from "@/lib/chat/attempts/replay-attempt";
import { previewTurn } from "@/lib/chat/turn/preview-turn";
import { openConversation } from "@/lib/chat/turn/turn-setup";
import type { SettingsOverride } from "@/lib/domain/settings";
import { logger } from "@/lib/logger";
import {
  diffCounts,
  type ExperimentPayloads,
  type ExperimentRowSummary,
  type LiveReply,
  sideFigures,
  storedPayload,
} from "./experiment-figures";

/** What the candidate changes, resolved once for the whole dataset (docs/lab.md, "The candidate"). */
export interface ResolvedCandidate {
  settings?: SettingsOverride;
  modelId?: string;
  /** Answer as this persona (another one, or a version of one) instead of each conversation's own. */
  persona?: Persona;
  /** The persona prompt to use instead of the answering persona's. */
  personaPrompt?: string;
}

/** Conversations built at once: reads overlap, and the CPU part of a build is short. */
const CONCURRENCY = 4;
/** Rows stored per write (and per progress step). */
const BATCH_ROWS = 25;

/** Experiments running in this process, so a reader can tell a live job from one a dead server left. */
const running = new Map<string, Promise<void>>();

export function isRunningHere(experimentId: string): boolean {
  return running.has(experimentId);
}

/** Resolves once every experiment started in this process has ended (tests, graceful shutdown). */
export async function settleExperiments(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running.values()]);
}

/** Starts the job without waiting for it; never throws (a failure marks the experiment failed). */
export function startExperiment(args: {
  db: Database;
  user: SessionUser;
  experiment: Experiment;
  conversationIds: readonly string[];
  candidate: ResolvedCandidate;
}): void {
  const job = runExperiment(args).catch(async (error: unknown) => {
    logger.error({ err: error, experimentId: args.experiment.id }, "experiment failed");
    const message = error instanceof Error ? error.message : String(error);
    await setExperimentStatus({
      db: args.db,
      experimentId: args.experiment.id,
      status: "failed",
      error: message,
    }).catch(() => undefined);
  });
  running.set(args.experiment.id, job);
  void job.finally(() => running.delete(args.experiment.id));
}

export async function runExperiment({
  db,
  user,
  experiment,
  conversationIds,
  candidate,
}: {
  db: Database;
  user: SessionUser;
  experiment: Experiment;
  conversationIds: readonly string[];
  candidate: ResolvedCandidate;
}): Promise<void> {
  await setExperimentStatus({ db, experimentId: experiment.id, status: "running" });
  const pricesByModel = new Map((await listModels({ db })).map((model: Model) => [model.id, model.prices]));
  let storing: Promise<void> = Promise.resolve();
  for (let start = 0; start < conversationIds.length; start += BATCH_ROWS) {
    // A failed store fails the experiment before more is built.
    await Promise.race([storing, Promise.resolve()]);
    const batch = conversationIds.slice(start, start + BATCH_ROWS);
    const lastRequests = await lastReplyRequests({ db, conversationIds: batch });
    const rows: ResultRowToStore[] = new Array(batch.length);
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const index = next++;
        const conversationId = batch[index];
        rows[index] = {
          position: start + index,
          ...(await experimentRow({
            db,
            user,
            conversationId,
            text: experiment.text,
            candidate,
            lastRequest: lastRequests.get(conversationId) ?? null,
            pricesByModel,
            live: experiment.live,
          })),
        };
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batch.length) }, worker));
    // Stored while the next batch builds, one batch after another (progress moves in order).
    const stored = storing.then(() => storeExperimentRows({ db, experimentId: experiment.id, rows }));
    stored.catch(() => {});
    storing = stored;
  }
  await storing;
  await setExperimentStatus({ db, experimentId: experiment.id, status: "done" });
}

/** The what-if of one conversation as the preview route would be asked for it. */
export function candidatePreviewArgs(candidate: ResolvedCandidate, answering: Persona | undefined) {
  return {
    modelId: candidate.modelId,
    settings: candidate.settings,
    persona:
      candidate.personaPrompt === undefined || answering === undefined
        ? candidate.persona
        : { ...answering, systemPrompt: candidate.personaPrompt },
  };
}

async function experimentRow({
  db,
  user,
  conversationId,
  text,
  candidate,
  lastRequest,
  pricesByModel,
  live,
}: {
  db: Database;
  user: SessionUser;
  conversationId: string;
  text: string;
  candidate: ResolvedCandidate;
  lastRequest: { attemptId: string; body: string } | null;
  pricesByModel: Map<string, Model["prices"]>;
  live: boolean;
}): Promise<Omit<ResultRowToStore, "position">> {
  try {
    const baseline = await previewTurn({ db, user, conversationId, text });
    const whatIf = candidatePreviewArgs(
      candidate,
      await answeringPersona(db, user, conversationId, candidate),
    );
    const built = await previewTurn({ db, user, conversationId, text, ...whatIf });
    const lastBody = lastRequest?.body ?? null;
    const summary: ExperimentRowSummary = {
      conversationId,
      baseline: sideFigures(baseline, lastBody, pricesByModel.get(baseline.modelId)),
      candidate: sideFigures(built, lastBody, pricesByModel.get(built.modelId)),
      diff: diffCounts(baseline, built),
      error: null,
      live: live ? await sendBoth({ db, user, lastRequest, candidate }) : null,
    };
    const payloads: ExperimentPayloads = {
      baseline: storedPayload(baseline),
      candidate: storedPayload(built),
    };
    return { summary, payloads: JSON.stringify(payloads) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const summary: ExperimentRowSummary = {
      conversationId,
      baseline: null,
      candidate: null,
      diff: null,
      error: message,
    };
    return { summary, payloads: null };
  }
}

/**
 * The persona a prompt-only candidate edits: the candidate's own when it names one, else the conversation's (read
 * only then: previewTurn opens the conversation itself).
 */
async function answeringPersona(
  db: Database,
  user: SessionUser,
  conversationId: string,
  candidate: ResolvedCandidate,
): Promise<Persona | undefined> {
  if (candidate.persona || candidate.personaPrompt === undefined) return candidate.persona;
  return (await openConversation({ db, conversationId, userId: user.id })).persona;
}

/**
 * Live: the conversation's last reply sent again both ways through the replay machinery (each recorded as a
 * replay attempt with its exact bytes): rebuilt as today, and rebuilt with the candidate.
 */
async function sendBoth({
  db,
  user,
  lastRequest,
  candidate,
}: {
  db: Database;
  user: SessionUser;
  lastRequest: { attemptId: string } | null;
  candidate: ResolvedCandidate;
}): Promise<{ baseline: LiveReply; candidate: LiveReply } | null> {
  if (!lastRequest) return null;
  const readable = await openReadableAttempt({ db, attemptId: lastRequest.attemptId, userId: user.id });
  const reply = (view: Awaited<ReturnType<typeof replayAttempt>>): LiveReply => ({
    attemptId: view.id,
    status: view.status,
    text: view.response?.text ?? "",
  });
  // `settings: {}` rebuilds the turn as today instead of resending the recorded body.
  const baseline = await replayAttempt({ db, user, readable, options: { settings: {} } });
  const systemPrompt = candidate.personaPrompt ?? candidate.persona?.systemPrompt;
  const whatIf = await replayAttempt({
    db,
    user,
    readable,
    options: { settings: candidate.settings ?? {}, modelId: candidate.modelId, systemPrompt },
  });
  return { baseline: reply(baseline), candidate: reply(whatIf) };
}
