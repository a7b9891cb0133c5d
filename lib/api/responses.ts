// What each JSON route sends, described once: the body in the server's own types (the functions that build it), by
// "METHOD /api/path". A route answers through `respond` (./respond.ts), so tsc refuses a body that leaves a field
// out; the browser's fetchers read `ApiOutput<…>`, the same type after JSON, so tsc refuses a read of a field no
// route sends. Type-only: nothing of the server reaches the browser's bundle through here.

import type {
  createMemory,
  createModel,
  createPersona,
  insertSettingsVersion,
  listBlocks,
  listMemories,
  listPersonasWithUsage,
  listSettingsVersions,
  listUsers,
  setUserRole,
  updateMemory,
  updateModel,
  updatePersona,
  upsertBlock,
} from "@/db/admin-queries";
import type { listOtherModelCallSummaries, searchAttempts } from "@/db/attempt-queries";
import type { createConversation, listConversations, updateConversation } from "@/db/conversation-queries";
import type { createDataset, getDataset, listDatasets } from "@/db/dataset-queries";
import type { listDatasetExperiments } from "@/db/experiment-queries";
import type { getMemoryPreferences, listOwnMemories } from "@/db/memory-queries";
import type { listMessageVersions } from "@/db/message-edit-queries";
import type { listModels } from "@/db/model-queries";
import type { acceptInvitation, listInvitations, listParticipants } from "@/db/participant-queries";
import type { getPersona } from "@/db/persona-queries";
import type { getPersonaVersion, listPersonaVersions } from "@/db/persona-version-queries";
import type { Message, Persona } from "@/db/schema";
import type { searchConversations } from "@/db/search-queries";
import type { getCurrentSettings, getSettingsVersion } from "@/db/settings-queries";
import type { listTurnSummaries, listTurnsWithAttempts } from "@/db/turn-queries";
import type { replayAttempt } from "@/lib/chat/attempts/replay-attempt";
import type { withAttemptCosts, withCosts } from "@/lib/chat/attempts/turn-costs";
import type { draftAsUser } from "@/lib/chat/generated/write-as-me";
import type { previewTurn } from "@/lib/chat/turn/preview-turn";
import type { stopTurn } from "@/lib/chat/turn-control/stop-turn";
import type { AttemptCacheView } from "@/lib/chat/views/attempt-cache";
import type { toAttemptViews } from "@/lib/chat/views/attempt-view";
import type { SummaryView } from "@/lib/chat/views/summary-view";
import type { loadTranscript } from "@/lib/chat/views/transcript";
import type { ResolvedSettings } from "@/lib/domain/settings";
import type { importConversation } from "@/lib/export/import-conversation";
import type { createApiKey, listKeysWithUsage } from "@/lib/gateway/api-keys";
import type { ExperimentPayloads } from "@/lib/lab/experiment-figures";
import type { experimentView } from "@/lib/lab/experiment-view";
import type { AttachmentView } from "@/lib/media/attachment-view";
import type { SettingField } from "@/lib/settings-fields";
import type { AsJson } from "./as-json";
import type { conversationDetail } from "./conversation-detail";

/** What an async server function resolves to. */
type Result<Function extends (...args: never[]) => unknown> = Awaited<ReturnType<Function>>;
type Row<Function extends (...args: never[]) => Promise<readonly unknown[]>> = Result<Function>[number];
/** A map sent as a JSON object (`Object.fromEntries`). */
type AsRecord<Value> = Value extends ReadonlyMap<string, infer Entry> ? Record<string, Entry> : never;

type Transcript = Result<typeof loadTranscript>;
type StoredMessage = Omit<Message, "tokenCounts" | "segmentTokenCounts">;
type AttemptViewBody = Row<typeof toAttemptViews>;
type TurnSummaryRow = Row<typeof listTurnSummaries>;
type OtherCallSummaryRow = Row<typeof listOtherModelCallSummaries>;
type TurnRow = Omit<Row<typeof listTurnsWithAttempts>, "attempts"> & { attempts: AttemptViewBody[] };
type CallIndex = Result<
  typeof withCosts<TurnSummaryRow["attempts"][number], TurnSummaryRow, OtherCallSummaryRow>
>;
type FullCallIndex = Result<typeof withCosts<AttemptViewBody, TurnRow, AttemptViewBody>>;
type PreviewBody = Result<typeof previewTurn>;

export interface ApiResponses {
  // Conversations
  "GET /api/conversations": { conversations: Result<typeof listConversations> };
  "POST /api/conversations": { id: string; conversation: Result<typeof createConversation> };
  "GET /api/conversations/:id": ReturnType<typeof conversationDetail>;
  "PATCH /api/conversations/:id": { conversation: Result<typeof updateConversation> };
  "GET /api/search": { query: string } & Result<typeof searchConversations>;
  "POST /api/conversations/import": Pick<Result<typeof importConversation>, "title" | "notices"> & {
    id: string;
  };
  "POST /api/conversations/:id/branch": { id: string; title: string };
  "GET /api/personas": { personas: Pick<Persona, "id" | "name" | "slug" | "avatar" | "modelId">[] };
  "POST /api/conversations/:id/attachments": { attachment: AttachmentView };
  "POST /api/conversations/:id/write-as-me": Result<typeof draftAsUser>;
  // The lab: datasets and experiments
  "GET /api/datasets": { datasets: Result<typeof listDatasets> };
  "POST /api/datasets": { dataset: Result<typeof createDataset> };
  "GET /api/datasets/:id": {
    dataset: Result<typeof getDataset>;
    experiments: Result<typeof listDatasetExperiments>;
  };
  "POST /api/datasets/:id/experiments": { experiment: Result<typeof experimentView> };
  "GET /api/experiments/:id": { experiment: Result<typeof experimentView> };
  "GET /api/experiments/:id/results/:position": { payloads: ExperimentPayloads };
  // Gateway keys
  "GET /api/keys": { keys: Result<typeof listKeysWithUsage> };
  "POST /api/keys": Result<typeof createApiKey>;
  // People
  "GET /api/conversations/:id/participants": { participants: Result<typeof listParticipants> };
  "POST /api/conversations/:id/participants": {
    invitation: { email: string; status: "sent"; message: string };
  };
  "PATCH /api/conversations/:id/participants/:userId": { participant: Result<typeof acceptInvitation> };
  "GET /api/invitations": { invitations: Result<typeof listInvitations> };
  // Messages and replies
  "GET /api/conversations/:id/messages": {
    messages: Transcript["messages"];
    media: AsRecord<Transcript["media"]>;
    toolNames: AsRecord<Transcript["toolNames"]>;
    reasoning: AsRecord<Transcript["reasoning"]>;
    variants: AsRecord<Transcript["variants"]>;
    questionVersions: AsRecord<Transcript["questionVersions"]>;
    replyModels: AsRecord<Transcript["replyModels"]>;
    modelView: Transcript["modelView"];
  };
  "GET /api/conversations/:id/messages/:messageId": {
    message: StoredMessage;
    versions: Result<typeof listMessageVersions>;
  };
  "PATCH /api/conversations/:id/messages/:messageId": {
    message: StoredMessage;
    versions: Result<typeof listMessageVersions>;
  };
  "POST /api/conversations/:id/stop": { turnId: string; messageId: string | null } & Result<typeof stopTurn>;
  // Summaries
  "GET /api/conversations/:id/summaries": { summaries: SummaryView[]; activeSummaryId: string | null };
  "POST /api/conversations/:id/compact":
    | { compacted: true; summary: SummaryView }
    | { compacted: false; reason: string };
  "GET /api/conversations/:id/summaries/:summaryId": { summary: SummaryView | undefined };
  "PUT /api/conversations/:id/summaries/:summaryId": { summary: SummaryView | undefined };
  "POST /api/conversations/:id/summaries/:summaryId/revert": {
    reverted: SummaryView | undefined;
    restored: SummaryView | null;
    unmarkedMessages: number;
  };
  // Memories
  "GET /api/memories": {
    memories: Result<typeof listOwnMemories>;
    preferences: Result<typeof getMemoryPreferences>;
  };
  "PUT /api/memories/preferences": { preferences: Result<typeof getMemoryPreferences> };
  "PATCH /api/memories/:memoryId": { memory: { id: string; content: string } };
  // The inspector
  "GET /api/conversations/:id/turns?fields=summary": CallIndex;
  "GET /api/conversations/:id/turns": FullCallIndex;
  "GET /api/attempts/:id": { attempt: AttemptViewBody; cache: AttemptCacheView | null };
  "POST /api/attempts/:id/replay": { attempt: Result<typeof replayAttempt> };
  "GET /api/attempts": {
    attempts: Result<typeof withAttemptCosts<Row<typeof searchAttempts>>>;
    nextBefore: string | null;
  };
  "POST /api/conversations/:id/preview": { preview: PreviewBody };
  // Administration
  "GET /api/admin/settings": {
    version: number;
    settings: Result<typeof getCurrentSettings>["settings"];
    help: Record<string, string>;
    defaults: ResolvedSettings;
    fields: SettingField[];
  };
  "PUT /api/admin/settings": Pick<Result<typeof insertSettingsVersion>, "version" | "settings" | "createdAt">;
  "GET /api/admin/settings/versions": { versions: Result<typeof listSettingsVersions> };
  "GET /api/admin/personas/:id/versions": { versions: Result<typeof listPersonaVersions> };
  "GET /api/admin/personas/:id/versions/:version": { version: Result<typeof getPersonaVersion> };
  "POST /api/admin/personas/:id/versions/:version/restore": { persona: Persona; restoredFrom: number };
  "GET /api/admin/settings/versions/:version": { version: Result<typeof getSettingsVersion> };
  "POST /api/admin/settings/versions/:version/restore": Pick<
    Result<typeof insertSettingsVersion>,
    "version" | "settings" | "createdAt"
  > & { restoredFrom: number };
  "GET /api/admin/personas": {
    personas: Result<typeof listPersonasWithUsage>;
    tools: { name: string; description: string }[];
  };
  "POST /api/admin/personas": { persona: Result<typeof createPersona> };
  "GET /api/admin/personas/:id": { persona: Result<typeof getPersona> };
  "PUT /api/admin/personas/:id": { persona: Result<typeof updatePersona> };
  "POST /api/admin/personas/:id/preview": { saved: PreviewBody; draft: PreviewBody };
  "GET /api/admin/models": {
    models: Result<typeof listModels>;
    configuredProviders: Record<string, boolean>;
  };
  "POST /api/admin/models": { model: Result<typeof createModel> };
  "PUT /api/admin/models/:id": { model: Result<typeof updateModel> };
  "GET /api/admin/users": { users: Result<typeof listUsers> };
  "PUT /api/admin/users/:id": { user: Result<typeof setUserRole> };
  "GET /api/admin/blocks": { blocks: Result<typeof listBlocks> };
  "POST /api/admin/blocks": { block: Result<typeof upsertBlock> };
  "GET /api/admin/memories": { memories: Result<typeof listMemories> };
  "POST /api/admin/memories": { memory: Result<typeof createMemory> };
  "PUT /api/admin/memories": { memory: Result<typeof updateMemory> };
}

/** A route's name in the table above. */
export type ApiRoute = keyof ApiResponses;

/** What the browser receives from `route`: its body after JSON. */
export type ApiOutput<Route extends ApiRoute> = AsJson<ApiResponses[Route]>;
