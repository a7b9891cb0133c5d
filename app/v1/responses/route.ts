// POST /v1/responses: OpenAI's Responses API, answered by a persona as a turn of a Glassbox conversation
// (lib/gateway/responses.ts).
import { readResponsesCall, responses } from "@/lib/gateway/responses";
import { gatewayRoute } from "@/lib/gateway/route";

export const dynamic = "force-dynamic";

export const POST = gatewayRoute(responses, readResponsesCall);
