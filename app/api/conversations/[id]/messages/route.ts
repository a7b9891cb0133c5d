// GET /api/conversations/:id/messages: the transcript. Every message of the chosen path (summarised or not) in seq
// order, the media and tools they name, the model that answered each reply, the variants of each regenerated reply, and where the model's view began
// in the latest request when it left older messages out.

import { readableConversationRoute } from "@/app/api/conversations/readable-conversation";
import { respond } from "@/lib/api/respond";
import { loadTranscript } from "@/lib/chat/views/transcript";

export const dynamic = "force-dynamic";

export const GET = readableConversationRoute(async ({ db, conversationId }) => {
  const transcript = await loadTranscript({ db, conversationId });
  return respond("GET /api/conversations/:id/messages", {
    messages: transcript.messages,
    // The type and name of each attachment the messages' media parts name, by id.
    media: Object.fromEntries(transcript.media),
    // The tools each reply called, by message id.
    toolNames: Object.fromEntries(transcript.toolNames),
    // How long each reply's model thought, and what when the provider gave the text, by message id.
    reasoning: Object.fromEntries(transcript.reasoning),
    // The variants of each reply that has several, by the id of the user message it answers.
    variants: Object.fromEntries(transcript.variants),
    // The versions of each question that has several (edits fork a question), by the id of each version.
    questionVersions: Object.fromEntries(transcript.questionVersions),
    // The model that answered each reply, and the one it fell back from, by message id.
    replyModels: Object.fromEntries(transcript.replyModels),
    modelView: transcript.modelView,
  });
});
