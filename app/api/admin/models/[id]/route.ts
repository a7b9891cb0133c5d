import { deleteModel, getModelOrThrow, listModelUses, updateModel } from "@/db/admin-queries";
import { getDb } from "@/db/client";
import { readJson, requireAdmin, route } from "@/lib/api/route";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";
import { compatibleCatalogModels, MODEL_CATALOG } from "@/lib/domain/model-catalog";
import { parseModelId } from "../../params";
import { updateModelSchema } from "../schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const PUT = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const modelId = parseModelId((await params).id);
  const body = await readJson(request, updateModelSchema);
  const db = await getDb();
  const current = await getModelOrThrow({ db, modelId });
  // The cross-field rules hold for the row as it will be, not only for the fields sent.
  const next = { ...current, ...body };
  if (next.apiKind === "responses" && next.provider !== "openai") {
    throw new AppError("bad_request", "apiKind: responses is only for the openai provider");
  }
  if (next.maxOutputTokens > next.contextWindow) {
    throw new AppError("bad_request", "maxOutputTokens: must not exceed contextWindow");
  }
  return Response.json({ model: await updateModel({ db, modelId, changes: body }) });
});

/** Refused (409) while a persona or the policy uses the model, and for built-in models (restored at start-up). */
export const DELETE = route(async (request: Request, { params }: Context) => {
  await requireAdmin(request);
  const modelId = parseModelId((await params).id);
  const db = await getDb();
  await getModelOrThrow({ db, modelId });
  const uses = await listModelUses({ db, modelId });
  if (uses.length > 0) {
    throw new AppError(
      "conflict",
      `Model ${modelId} is in use by ${uses.join(", ")}: point them at another model first.`,
    );
  }
  const seeded = [...MODEL_CATALOG, ...compatibleCatalogModels(env().OPENAI_COMPATIBLE_MODELS)];
  if (seeded.some((model) => model.id === modelId)) {
    throw new AppError(
      "conflict",
      `Model ${modelId} is built in and would come back at the next start: disable it instead (enabled: false).`,
    );
  }
  await deleteModel({ db, modelId });
  return new Response(null, { status: 204 });
});
