// Data every fresh database needs: the built-in models, a default persona and version 1 of the context policy.
// Idempotent: rows that exist are left as they are, so admin edits survive restarts.

import "server-only";
import { sql } from "drizzle-orm";
import type { ServerEnvironment } from "@/lib/config/env";
import { configuredProviders } from "@/lib/config/providers";
import { compatibleCatalogModels, MODEL_CATALOG, OFFLINE_MODEL_ID } from "@/lib/domain/model-catalog";
import { defaultSettings } from "@/lib/domain/settings";
import type { Database } from "./database-type";
import { models, personas, settingsVersions } from "./schema";

export const DEFAULT_PERSONA_NAME = "Glassbox Guide";

export async function seedDatabase(db: Database, environment: ServerEnvironment): Promise<void> {
  // The built-in list, plus one row per model named in OPENAI_COMPATIBLE_MODELS.
  const builtInIds = new Set(MODEL_CATALOG.map((model) => model.id));
  const compatible = compatibleCatalogModels(environment.OPENAI_COMPATIBLE_MODELS).filter(
    (model) => !builtInIds.has(model.id),
  );
  const catalog = [...MODEL_CATALOG, ...compatible];
  // A catalogue entry's fields are columns of the models row (the rest keep their defaults).
  await db.insert(models).values(catalog).onConflictDoNothing();

  const [{ personaCount }] = await db.select({ personaCount: sql<number>`count(*)::int` }).from(personas);
  if (personaCount === 0) {
    await db.insert(personas).values({
      name: DEFAULT_PERSONA_NAME,
      systemPrompt:
        "You are Glassbox Guide, a concise and friendly assistant. Answer clearly; say when you are unsure.",
      modelId: defaultModelId(environment),
    });
  }

  await db.insert(settingsVersions).values({ version: 1, settings: defaultSettings() }).onConflictDoNothing();
}

/** The offline model unless a real provider is configured. */
function defaultModelId(environment: ServerEnvironment): string {
  const providers = configuredProviders(environment);
  if (providers.openai) return "openai:gpt-4.1-mini";
  if (providers.google) return "google:gemini-2.5-flash";
  if (providers.anthropic) return "anthropic:claude-sonnet-4-5";
  return OFFLINE_MODEL_ID;
}
