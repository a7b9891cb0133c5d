CREATE TABLE "live_event_cursors" (
	"conversationId" uuid PRIMARY KEY NOT NULL,
	"lastEventId" bigint DEFAULT 0 NOT NULL,
	"prunedThroughId" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_events" (
	"conversationId" uuid NOT NULL,
	"id" bigint NOT NULL,
	"type" text NOT NULL,
	"messageId" uuid,
	"payload" jsonb NOT NULL,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_events_conversationId_id_pk" PRIMARY KEY("conversationId","id")
);
--> statement-breakpoint
CREATE TABLE "memory_preferences" (
	"userId" text PRIMARY KEY NOT NULL,
	"sessionSummaries" boolean DEFAULT true NOT NULL,
	"updatedAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_event_cursors" ADD CONSTRAINT "live_event_cursors_conversationId_conversations_id_fk" FOREIGN KEY ("conversationId") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_events" ADD CONSTRAINT "live_events_conversationId_conversations_id_fk" FOREIGN KEY ("conversationId") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_preferences" ADD CONSTRAINT "memory_preferences_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;