// GET /v1/models: the personas the API key may talk to, in OpenAI's list shape; a persona's model id is its slug.

import { modelObject, personasOfKey } from "@/lib/gateway/personas";
import { gatewayRoute } from "@/lib/gateway/route";

export const dynamic = "force-dynamic";

export const GET = gatewayRoute(async ({ db, key }) =>
  Response.json({ object: "list", data: (await personasOfKey(db, key)).map(modelObject) }),
);
