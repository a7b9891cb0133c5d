// An experiment's candidate (docs/lab.md, "The candidate"), resolved once for the whole dataset: a policy version's
// settings with the request's settings over them, a persona (or one of its versions), a prompt, a model. Versions
// are the admins' to read, so only an admin may name one.

import "server-only";
import type { Database } from "@/db/client";
import { getPersona } from "@/db/persona-queries";
import { getPersonaVersion } from "@/db/persona-version-queries";
import { getSettingsVersion } from "@/db/settings-queries";
import type { SessionUser } from "@/lib/api/route";
import { requireCallableModel } from "@/lib/chat/turn/turn-setup";
import { AppError } from "@/lib/domain/errors";
import { resolveSettings, type SettingsOverride } from "@/lib/domain/settings";
import type { ResolvedCandidate } from "./run-experiment";

export interface CandidateRequest {
  settings?: SettingsOverride;
  personaId?: string;
  personaPrompt?: string;
  modelId?: string;
  policyVersion?: number;
  personaVersion?: number;
}

export async function resolveCandidate({
  db,
  user,
  request,
}: {
  db: Database;
  user: SessionUser;
  request: CandidateRequest;
}): Promise<ResolvedCandidate> {
  if (
    (request.policyVersion !== undefined || request.personaVersion !== undefined) &&
    user.role !== "admin"
  ) {
    throw new AppError("forbidden", "Only an admin may run a candidate from a policy or persona version.");
  }
  if (request.personaVersion !== undefined && request.personaId === undefined) {
    throw new AppError(
      "bad_request",
      "candidate.personaVersion needs candidate.personaId: the persona it is of.",
    );
  }
  if (request.modelId !== undefined) await requireCallableModel(db, request.modelId);
  let persona =
    request.personaId === undefined ? undefined : await getPersona({ db, personaId: request.personaId });
  if (persona && request.personaVersion !== undefined) {
    const version = await getPersonaVersion({ db, personaId: persona.id, version: request.personaVersion });
    persona = { ...persona, ...version.fields };
  }
  let settings = request.settings;
  if (request.policyVersion !== undefined) {
    const policy = await getSettingsVersion({ db, version: request.policyVersion });
    settings = (
      request.settings ? resolveSettings(policy.settings, request.settings) : policy.settings
    ) as SettingsOverride;
  }
  return {
    ...(settings === undefined ? {} : { settings }),
    ...(request.modelId === undefined ? {} : { modelId: request.modelId }),
    ...(persona === undefined ? {} : { persona }),
    ...(request.personaPrompt === undefined ? {} : { personaPrompt: request.personaPrompt }),
  };
}
