import { createModel } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { listModels } from "@/db/model-queries";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { configuredProviders } from "@/lib/config/providers";
import { createModelSchema } from "./schema";

export const dynamic = "force-dynamic";

/** Which providers have what they need in the environment: booleans only, never keys or URLs. */
function providerStatus() {
  const providers = configuredProviders();
  return {
    openai: providers.openai !== null,
    google: providers.google !== null,
    anthropic: providers.anthropic !== null,
    "openai-compatible": providers.openaiCompatible !== null,
    offline: true,
  };
}

export const GET = route(async (request: Request) => {
  await requireAdmin(request);
  return Response.json({
    models: await listModels({ db: await getDb() }),
    configuredProviders: providerStatus(),
  });
});

export const POST = route(async (request: Request) => {
  await requireAdmin(request);
  const body = await readJson(request, createModelSchema);
  const model = await createModel({ db: await getDb(), fields: body });
  return Response.json({ model }, { status: 201 });
});
