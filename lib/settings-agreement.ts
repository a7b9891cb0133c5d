// A settings override is stored only when the settings a conversation would resolve to with it agree with each
// other (lib/domain/settings-rules.ts): the persona's against the global policy, a conversation's against its
// persona's and the global policy. The admin's global policy document is checked by its schema instead.

import "server-only";
import type { Database } from "@/db/client";
import { getCurrentSettings } from "@/db/settings-queries";
import { AppError } from "@/lib/domain/errors";
import { resolveSettings, type SettingsOverride } from "@/lib/domain/settings";
import { settingsConflicts } from "@/lib/domain/settings-rules";

/** Refuses (400, naming both keys) an override whose resolved settings contradict each other. */
export async function assertSettingsAgree(
  db: Database,
  ...overridesMostSpecificFirst: (SettingsOverride | null | undefined)[]
): Promise<void> {
  const { settings: global } = await getCurrentSettings({ db });
  const [conflict] = settingsConflicts(resolveSettings(global, ...overridesMostSpecificFirst));
  if (conflict)
    throw new AppError("bad_request", `settingsOverride.${conflict.fields[0]}: ${conflict.message}`);
}
