// Strict runtime schemas of the JSON bodies the browser reads, each tied at compile time to the route's described
// body (lib/api/responses.ts, after JSON): `exactly<Body>()` takes one schema per key of Body, no key more, each
// producing that key's type. So tsc refuses a schema that drifts from the type the client reads, and parsing a
// real response with it fails when the server stops sending a field (or sends one the type does not name).
import { z } from "zod";
import type { ApiOutput } from "@/lib/api/responses";
import {
  API_KINDS,
  AUTHOR_TYPES,
  BLOCK_TYPES,
  MESSAGE_STATUSES,
  PROVIDER_NAMES,
  TOKENIZER_NAMES,
} from "@/lib/domain/types";

/**
 * A structured value (settings, message parts, context items, a trace, timings) that must be present but whose
 * inside belongs to the pipeline's own schemas and tests: only its key is checked here.
 */
const opaque = () =>
  Object.assign(
    z.custom<unknown>((value) => value !== undefined, "missing"),
    { opaque: true as const },
  );
/** A list of such values (context items, trace events): present and an array, its elements checked elsewhere. */
const opaqueList = () => Object.assign(z.array(z.unknown()), { opaque: true as const });
type Opaque = z.ZodType & { opaque: true };

/** Per key of Body: a schema of that key's type, or `opaque()`. */
type ValueSchemas<Body> = { [Key in keyof Body]-?: z.ZodType<Body[Key]> | Opaque };

/** A strict object schema of exactly Body's keys, typed as Body so that it nests in the schema of its parent. */
export function exactly<Body extends object>() {
  return <Shape extends ValueSchemas<Body>>(
    shape: Shape & Record<Exclude<keyof Shape, keyof Body>, never>,
  ): z.ZodType<Body> => z.strictObject(shape) as unknown as z.ZodType<Body>;
}
const time = () => z.iso.datetime({ offset: true });
const id = () => z.string().min(1);
const nullableId = () => z.string().nullable();

type Output<Route extends Parameters<typeof route>[0]> = ApiOutput<Route>;
/** Names the route a schema is for (the type argument is all it is for). */
function route<Route extends keyof import("@/lib/api/responses").ApiResponses>(_route: Route) {
  return exactly<ApiOutput<Route>>();
}

// Conversations

type ConversationRow = Output<"PATCH /api/conversations/:id">["conversation"];
const conversationRow = exactly<ConversationRow>()({
  id: id(),
  ownerId: id(),
  personaId: id(),
  title: z.string(),
  visibility: z.enum(["private", "room"]),
  settingsOverride: opaque(),
  instructions: z.string().nullable(),
  modelId: nullableId(),
  lastSeq: z.number().int(),
  branchedFromConversationId: nullableId(),
  branchedFromMessageId: nullableId(),
  createdAt: time(),
  updatedAt: time(),
});

type ListedConversation = Output<"GET /api/conversations">["conversations"][number];
const listedConversationShape = {
  id: id(),
  title: z.string(),
  personaId: id(),
  ownerId: id(),
  visibility: z.enum(["private", "room"]),
  createdAt: time(),
  updatedAt: time(),
};
const listedConversation = exactly<ListedConversation>()(listedConversationShape);

export const conversationList = route("GET /api/conversations")({
  conversations: z.array(listedConversation),
});

export const createdConversation = route("POST /api/conversations")({
  id: id(),
  conversation: conversationRow,
});

export const patchedConversation = route("PATCH /api/conversations/:id")({ conversation: conversationRow });

type Detail = Output<"GET /api/conversations/:id">;
export const conversationDetail = route("GET /api/conversations/:id")({
  conversation: exactly<Detail["conversation"]>()({
    id: id(),
    title: z.string(),
    ownerId: id(),
    personaId: id(),
    isOwner: z.boolean(),
    visibility: z.enum(["private", "room"]),
    instructions: z.string().nullable(),
    settingsOverride: opaque(),
    modelId: nullableId(),
  }),
  persona: exactly<Detail["persona"]>()({
    id: id(),
    name: z.string(),
    avatar: z.string().nullable(),
    modelId: id(),
  }),
  models: z.array(exactly<Detail["models"][number]>()({ id: id(), label: z.string() })),
});

type PickerPersona = Output<"GET /api/personas">["personas"][number];
export const personaPicker = route("GET /api/personas")({
  personas: z.array(
    exactly<PickerPersona>()({
      id: id(),
      name: z.string(),
      slug: z.string().nullable(),
      avatar: z.string().nullable(),
      modelId: id(),
    }),
  ),
});

type Found = Output<"GET /api/search">["conversations"][number];
type Hit = Found["hits"][number];
export const searchResult = route("GET /api/search")({
  query: z.string(),
  mode: z.enum(["words", "substring"]),
  conversations: z.array(
    exactly<Found>()({
      ...listedConversationShape,
      titleMatch: z.boolean(),
      hits: z.array(
        exactly<Hit>()({
          messageId: id(),
          authorName: z.string(),
          authorType: z.enum(["user", "persona"]),
          createdAt: time(),
          snippet: z.array(exactly<Hit["snippet"][number]>()({ text: z.string(), highlight: z.boolean() })),
        }),
      ),
    }),
  ),
});

// People

type Participant = Output<"GET /api/conversations/:id/participants">["participants"][number];
export const participantList = route("GET /api/conversations/:id/participants")({
  participants: z.array(
    exactly<Participant>()({
      userId: id(),
      name: z.string(),
      role: z.enum(["owner", "member", "invited"]),
      joinedAt: time(),
    }),
  ),
});

type SentInvitation = Output<"POST /api/conversations/:id/participants">["invitation"];
export const invitationSent = route("POST /api/conversations/:id/participants")({
  invitation: exactly<SentInvitation>()({
    email: z.string(),
    status: z.literal("sent"),
    message: z.string(),
  }),
});

type Invitation = Output<"GET /api/invitations">["invitations"][number];
export const invitationList = route("GET /api/invitations")({
  invitations: z.array(
    exactly<Invitation>()({
      conversationId: id(),
      title: z.string(),
      invitedBy: z.string(),
      invitedAt: time(),
    }),
  ),
});

// Messages

type Transcript = Output<"GET /api/conversations/:id/messages">;
const storedMessage = exactly<Transcript["messages"][number]>()({
  id: id(),
  conversationId: id(),
  seq: z.number().int(),
  authorType: z.enum(AUTHOR_TYPES),
  authorUserId: nullableId(),
  authorPersonaId: nullableId(),
  authorName: z.string(),
  parts: opaque(),
  replyToMessageId: nullableId(),
  parentMessageId: nullableId(),
  status: z.enum(MESSAGE_STATUSES),
  chosen: z.boolean(),
  chosenAmongSiblings: z.boolean(),
  clientMessageId: z.string().nullable(),
  editedAt: time().nullable(),
  summarizedBy: nullableId(),
  createdAt: time(),
  updatedAt: time(),
});

export const transcript = route("GET /api/conversations/:id/messages")({
  messages: z.array(storedMessage),
  media: z.record(
    z.string(),
    exactly<Transcript["media"][string]>()({
      mime: z.string(),
      filename: z.string().nullable(),
      sizeBytes: z.number().int(),
      originUrl: z.string().nullable(),
    }),
  ),
  toolNames: z.record(z.string(), z.array(z.string())),
  questionVersions: z.record(z.string(), z.array(id())),
  reasoning: z.record(
    z.string(),
    exactly<Transcript["reasoning"][string]>()({
      durationMs: z.number().nullable(),
      text: z.string(),
      hidden: z.boolean(),
    }),
  ),
  variants: z.record(
    z.string(),
    z.array(
      exactly<Transcript["variants"][string][number]>()({
        id: id(),
        status: z.enum(MESSAGE_STATUSES),
        chosen: z.boolean(),
      }),
    ),
  ),
  replyModels: z.record(
    z.string(),
    exactly<Transcript["replyModels"][string]>()({ modelId: id(), fallbackFromModelId: nullableId() }),
  ),
  modelView: opaque(),
});

type Versions = Output<"GET /api/conversations/:id/messages/:messageId">["versions"];
export const messageWithVersions = route("GET /api/conversations/:id/messages/:messageId")({
  message: storedMessage,
  versions: z.array(exactly<Versions[number]>()({ id: id(), parts: opaque(), createdAt: time() })),
});

// Summaries

type Summary = Output<"GET /api/conversations/:id/summaries">["summaries"][number];
const summaryView = exactly<Summary>()({
  id: id(),
  conversationId: id(),
  content: z.string(),
  coversThroughSeq: z.number().int(),
  messageCount: z.number().int(),
  modelId: nullableId(),
  tokensBefore: z.number().nullable(),
  tokensAfter: z.number().nullable(),
  trigger: z.enum(["manual", "token", "turn"]),
  supersededBy: nullableId(),
  createdAt: time(),
  state: z.enum(["active", "superseded", "reverted"]),
  isActive: z.boolean(),
});

export const summaryList = route("GET /api/conversations/:id/summaries")({
  summaries: z.array(summaryView),
  activeSummaryId: nullableId(),
});

type Compacted = Extract<Output<"POST /api/conversations/:id/compact">, { compacted: true }>;
type NotCompacted = Extract<Output<"POST /api/conversations/:id/compact">, { compacted: false }>;
export const compactResult = z.union([
  exactly<Compacted>()({ compacted: z.literal(true), summary: summaryView }),
  exactly<NotCompacted>()({ compacted: z.literal(false), reason: z.string() }),
]);

// Memories

type OwnMemory = Output<"GET /api/memories">["memories"][number];
export const ownMemories = route("GET /api/memories")({
  memories: z.array(
    exactly<OwnMemory>()({
      id: id(),
      scope: z.enum(["user", "persona", "user_persona"]),
      area: z.string(),
      content: z.string(),
      personaName: z.string().nullable(),
      conversationId: nullableId(),
      conversationTitle: z.string().nullable(),
      summaryId: nullableId(),
      updatedAt: time(),
    }),
  ),
  preferences: exactly<Output<"GET /api/memories">["preferences"]>()({
    sessionSummaries: z.boolean(),
    chosen: z.boolean(),
  }),
});

// Administration

type Model = Output<"GET /api/admin/models">["models"][number];
export const adminModels = route("GET /api/admin/models")({
  models: z.array(
    exactly<Model>()({
      id: id(),
      provider: z.enum(PROVIDER_NAMES),
      providerModelName: z.string(),
      label: z.string(),
      apiKind: z.enum(API_KINDS),
      capabilities: opaque(),
      contextWindow: z.number().int(),
      maxOutputTokens: z.number().int(),
      tokenizer: z.enum(TOKENIZER_NAMES),
      prices: opaque(),
      enabled: z.boolean(),
      createdAt: time(),
      updatedAt: time(),
    }),
  ),
  configuredProviders: z.record(z.string(), z.boolean()),
});

type Persona = Output<"GET /api/admin/personas/:id">["persona"];
const personaShape = {
  id: id(),
  name: z.string(),
  slug: z.string().nullable(),
  avatar: z.string().nullable(),
  systemPrompt: z.string(),
  modelId: id(),
  fallbackModelIds: z.array(z.string()),
  toolNames: z.array(z.string()),
  settingsOverride: opaque(),
  createdAt: time(),
  updatedAt: time(),
};
export const adminPersona = route("GET /api/admin/personas/:id")({
  persona: exactly<Persona>()(personaShape),
});

type ListedPersona = Output<"GET /api/admin/personas">["personas"][number];
export const adminPersonas = route("GET /api/admin/personas")({
  personas: z.array(exactly<ListedPersona>()({ ...personaShape, conversationCount: z.number().int() })),
  tools: z.array(
    exactly<Output<"GET /api/admin/personas">["tools"][number]>()({
      name: z.string(),
      description: z.string(),
    }),
  ),
});

type User = Output<"GET /api/admin/users">["users"][number];
export const adminUsers = route("GET /api/admin/users")({
  users: z.array(
    exactly<User>()({ id: id(), name: z.string(), email: z.string(), role: z.string(), createdAt: time() }),
  ),
});

type Policy = Output<"GET /api/admin/settings">;
export const adminSettings = route("GET /api/admin/settings")({
  version: z.number().int(),
  settings: opaque(),
  help: z.record(z.string(), z.string()),
  defaults: opaque(),
  fields: opaque(),
});

type Version = Output<"GET /api/admin/settings/versions">["versions"][number];
export const adminSettingsVersions = route("GET /api/admin/settings/versions")({
  versions: z.array(
    exactly<Version>()({
      version: z.number().int(),
      changedBy: nullableId(),
      changedByName: z.string().nullable(),
      createdAt: time(),
      settings: opaque(),
    }),
  ),
});

type Block = Output<"GET /api/admin/blocks">["blocks"][number];
export const adminBlocks = route("GET /api/admin/blocks")({
  blocks: z.array(
    exactly<Block>()({
      id: id(),
      personaId: id(),
      userId: id(),
      blockType: z.enum(BLOCK_TYPES),
      reason: z.string().nullable(),
      expiresAt: time().nullable(),
      setBy: nullableId(),
      createdAt: time(),
      personaName: z.string(),
      userName: z.string(),
      userEmail: z.string(),
      active: z.boolean(),
    }),
  ),
});

type AdminMemory = Output<"GET /api/admin/memories">["memories"][number];
export const adminMemories = route("GET /api/admin/memories")({
  memories: z.array(
    exactly<AdminMemory>()({
      id: id(),
      scope: z.enum(["user", "persona", "user_persona"]),
      userId: nullableId(),
      personaId: nullableId(),
      conversationId: nullableId(),
      summaryId: nullableId(),
      area: z.string(),
      content: z.string(),
      active: z.boolean(),
      createdAt: time(),
      updatedAt: time(),
      userName: z.string().nullable(),
      personaName: z.string().nullable(),
    }),
  ),
});

export type { Policy };

// The inspector

type CallIndex = Output<"GET /api/conversations/:id/turns?fields=summary">;
type Attempt = Output<"GET /api/attempts/:id">["attempt"];
type Preview = Output<"POST /api/conversations/:id/preview">["preview"];
const ATTEMPT_KINDS = ["reply", "summary", "title", "write_as_me", "replay"] as const;
const ATTEMPT_STATUSES = ["ok", "error", "stopped"] as const;
const TURN_STATUSES = ["running", "ok", "error", "stopped", "interrupted"] as const;

const listedAttemptShape = {
  id: id(),
  turnId: nullableId(),
  kind: z.enum(ATTEMPT_KINDS),
  attemptNumber: z.number().int(),
  stepNumber: z.number().int(),
  modelId: id(),
  status: z.enum(ATTEMPT_STATUSES),
  error: opaque(),
  usage: opaque(),
  timings: opaque(),
  settingsVersion: z.number().int(),
  createdAt: time(),
  cost: opaque(),
};

const turnShape = {
  id: id(),
  conversationId: id(),
  userMessageId: nullableId(),
  assistantMessageId: nullableId(),
  status: z.enum(TURN_STATUSES),
  settingsVersion: z.number().int(),
  instanceId: z.string().nullable(),
  heartbeatAt: time().nullable(),
  createdAt: time(),
  cost: opaque(),
};

export const callIndex = route("GET /api/conversations/:id/turns?fields=summary")({
  turns: z.array(
    exactly<CallIndex["turns"][number]>()({
      ...turnShape,
      attempts: z.array(exactly<CallIndex["turns"][number]["attempts"][number]>()(listedAttemptShape)),
    }),
  ),
  otherCalls: z.array(exactly<CallIndex["otherCalls"][number]>()(listedAttemptShape)),
  cost: opaque(),
});

const unclaimedElement = exactly<Attempt["unclaimed"][number]>()({ pointer: z.string(), what: z.string() });

const sentRequest = exactly<Attempt["requests"][number]>()({
  url: z.string(),
  status: z.number().int().nullable(),
  body: z.string(),
  items: Object.assign(z.array(z.unknown()).nullable(), { opaque: true as const }),
  unclaimed: z.array(unclaimedElement),
  warnings: z.array(z.string()),
});

const attemptView = exactly<Attempt>()({
  id: id(),
  conversationId: id(),
  turnId: nullableId(),
  kind: z.enum(ATTEMPT_KINDS),
  replayOf: nullableId(),
  attemptNumber: z.number().int(),
  stepNumber: z.number().int(),
  modelId: id(),
  provider: z.enum(PROVIDER_NAMES).nullable(),
  status: z.enum(ATTEMPT_STATUSES),
  error: opaque(),
  items: opaqueList(),
  unclaimed: z.array(unclaimedElement),
  warnings: z.array(z.string()),
  trace: opaqueList(),
  settings: opaque(),
  settingsVersion: z.number().int(),
  budget: opaque(),
  request: exactly<NonNullable<Attempt["request"]>>()({ url: z.string(), body: z.string() }).nullable(),
  requests: z.array(sentRequest),
  response: opaque(),
  usage: opaque(),
  cost: opaque(),
  costToday: opaque(),
  timings: opaque(),
  privateMemoryRedaction: opaque(),
  createdAt: time(),
});

type Cache = NonNullable<Output<"GET /api/attempts/:id">["cache"]>;
const attemptCache = exactly<Cache>()({
  reusablePrefixBytes: z.number().int(),
  firstDivergence: exactly<NonNullable<Cache["firstDivergence"]>>()({
    byteOffset: z.number().int(),
    itemId: z.string(),
    reason: z.string(),
  }).nullable(),
  missedInputTokens: z.number(),
  missCostUsd: z.number().nullable(),
  breakpoints: z.array(z.enum(["system", "summary", "history"])),
  previousAttemptId: id(),
});

export const attempt = route("GET /api/attempts/:id")({
  attempt: attemptView,
  cache: attemptCache.nullable(),
});

type FullIndex = Output<"GET /api/conversations/:id/turns">;
export const fullCallIndex = route("GET /api/conversations/:id/turns")({
  turns: z.array(
    exactly<FullIndex["turns"][number]>()({
      ...turnShape,
      attempts: z.array(attemptView),
    }),
  ),
  otherCalls: z.array(attemptView),
  cost: opaque(),
});

export const preview = route("POST /api/conversations/:id/preview")({
  preview: exactly<Preview>()({
    modelId: id(),
    provider: z.enum(PROVIDER_NAMES),
    settingsVersion: z.number().int(),
    settings: opaque(),
    items: opaqueList(),
    unclaimed: z.array(unclaimedElement),
    warnings: z.array(z.string()),
    trace: opaqueList(),
    budget: opaque(),
    request: exactly<Preview["request"]>()({ url: z.string(), body: z.string() }),
    replyInProgress: z.boolean(),
  }),
});

export const replayed = route("POST /api/attempts/:id/replay")({ attempt: attemptView });

type FoundAttempt = Output<"GET /api/attempts">["attempts"][number];
export const attemptSearch = route("GET /api/attempts")({
  attempts: z.array(
    exactly<FoundAttempt>()({
      ...listedAttemptShape,
      conversationId: id(),
      conversationTitle: z.string(),
    }),
  ),
  nextBefore: z.string().nullable(),
});

// What the chat's actions answer

export const branched = route("POST /api/conversations/:id/branch")({ id: id(), title: z.string() });

export const imported = route("POST /api/conversations/import")({
  id: id(),
  title: z.string(),
  notices: z.array(z.string()),
});

export const draft = route("POST /api/conversations/:id/write-as-me")({ draft: z.string(), modelId: id() });

export const uploaded = route("POST /api/conversations/:id/attachments")({
  attachment: exactly<Output<"POST /api/conversations/:id/attachments">["attachment"]>()({
    id: id(),
    kind: z.enum(["image", "video", "audio", "file"]),
    mime: z.string(),
    filename: z.string().nullable(),
    sizeBytes: z.number().int(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    url: z.string(),
  }),
});

export const summaryUpdated = route("PUT /api/conversations/:id/summaries/:summaryId")({
  summary: summaryView,
});

export const summaryReverted = route("POST /api/conversations/:id/summaries/:summaryId/revert")({
  reverted: summaryView,
  restored: summaryView.nullable(),
  unmarkedMessages: z.number().int(),
});

// Settings → API keys

type CreatedKey = Output<"POST /api/keys">;
const keyShape = {
  id: id(),
  name: z.string(),
  personaIds: z.array(id()).nullable(),
  createdAt: time(),
  lastUsedAt: time().nullable(),
  revokedAt: time().nullable(),
};

export const createdKey = route("POST /api/keys")({
  key: exactly<CreatedKey["key"]>()(keyShape),
  secret: z.string(),
});

type ListedKey = Output<"GET /api/keys">["keys"][number];
export const keyList = route("GET /api/keys")({
  keys: z.array(
    exactly<ListedKey>()({
      ...keyShape,
      usage: exactly<ListedKey["usage"]>()({
        calls: z.number().int(),
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
        costUsd: z.number().nonnegative().nullable(),
      }),
    }),
  ),
});
