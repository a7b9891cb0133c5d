CREATE TABLE "api_key_conversations" (
	"conversationId" uuid PRIMARY KEY NOT NULL,
	"apiKeyId" uuid NOT NULL,
	"transcriptHash" text NOT NULL,
	"updatedAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"userId" text NOT NULL,
	"name" text NOT NULL,
	"secretHash" text NOT NULL,
	"personaIds" jsonb,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"lastUsedAt" timestamp with time zone,
	"revokedAt" timestamp with time zone,
	CONSTRAINT "api_keys_secret_hash_unique" UNIQUE("secretHash")
);
--> statement-breakpoint
ALTER TABLE "personas" ADD COLUMN "slug" text;--> statement-breakpoint
ALTER TABLE "api_key_conversations" ADD CONSTRAINT "api_key_conversations_conversationId_conversations_id_fk" FOREIGN KEY ("conversationId") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_conversations" ADD CONSTRAINT "api_key_conversations_apiKeyId_api_keys_id_fk" FOREIGN KEY ("apiKeyId") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_key_conversations_hash_idx" ON "api_key_conversations" USING btree ("apiKeyId","transcriptHash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("userId","createdAt");--> statement-breakpoint
-- Existing personas get their slug now: the name in lowercase words joined by hyphens; a name that repeats one of
-- an earlier persona gets the random end of its id after it (a UUIDv7 starts with its time, which repeats).
WITH "named" AS (
	SELECT "id", coalesce(nullif(trim(both '-' from regexp_replace(lower("name"), '[^a-z0-9]+', '-', 'g')), ''), 'persona') AS "base",
		row_number() OVER (PARTITION BY coalesce(nullif(trim(both '-' from regexp_replace(lower("name"), '[^a-z0-9]+', '-', 'g')), ''), 'persona') ORDER BY "createdAt", "id") AS "rank"
	FROM "personas"
)
UPDATE "personas" SET "slug" = CASE WHEN "named"."rank" = 1 THEN "named"."base" ELSE "named"."base" || '-' || right(replace("personas"."id"::text, '-', ''), 12) END
FROM "named" WHERE "named"."id" = "personas"."id";--> statement-breakpoint
ALTER TABLE "personas" ADD CONSTRAINT "personas_slug_unique" UNIQUE("slug");