// Data every fresh database needs: the built-in models, a default persona and version 1 of the context policy.
// Idempotent: rows that exist are left as they are, so admin edits survive restarts.

import { sql } from "drizzle-orm";
import { defaultSettings } from "@/lib/context/settings";
import { configuredProviders } from "@/lib/providers/provider-config";
import { MODEL_CATALOG, OFFLINE_MODEL_ID } from "@/lib/providers/model-catalog";
import type { Database } from "./client";
import { models, personas, settingsVersions } from "./schema";

export const DEFAULT_PERSONA_NAME = "Glassbox Guide";

export async function seedDatabase(db: Database): Promise<void> {
  await db
    .insert(models)
    .values(MODEL_CATALOG.map(({ id, label, provider, providerModelName, apiKind, capabilities, contextWindow, maxOutputTokens, tokenizer }) => ({
      id, label, provider, providerModelName, apiKind, capabilities, contextWindow, maxOutputTokens, tokenizer,
    })))
    .onConflictDoNothing();

  const [{ personaCount }] = await db.select({ personaCount: sql<number>`count(*)::int` }).from(personas);
  if (personaCount === 0) {
    await db.insert(personas).values({
      name: DEFAULT_PERSONA_NAME,
      systemPrompt:
        "You are Glassbox Guide, a concise and friendly assistant. Answer clearly; say when you are unsure.",
      modelId: defaultModelId(),
    });
  }

  await db
    .insert(settingsVersions)
    .values({ version: 1, settings: defaultSettings() })
    .onConflictDoNothing();
}

/** The offline model unless a real provider is configured. */
function defaultModelId(): string {
  const providers = configuredProviders();
  if (providers.openai) return "openai:gpt-4.1-mini";
  if (providers.google) return "google:gemini-2.5-flash";
  return OFFLINE_MODEL_ID;
}
