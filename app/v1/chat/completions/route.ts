// POST /v1/chat/completions: OpenAI's chat completions API, answered by a persona (its slug is the model id) as a
// turn of a Glassbox conversation (lib/gateway/chat-completions.ts).
import { chatCompletions, readChatCompletion } from "@/lib/gateway/chat-completions";
import { gatewayRoute } from "@/lib/gateway/route";

export const dynamic = "force-dynamic";

export const POST = gatewayRoute(chatCompletions, readChatCompletion);
