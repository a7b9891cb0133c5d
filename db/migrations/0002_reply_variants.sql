CREATE TABLE "message_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"messageId" uuid NOT NULL,
	"parts" jsonb NOT NULL,
	"replacedBy" text,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "branchedFromConversationId" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "branchedFromMessageId" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "chosen" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "clientMessageId" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "editedAt" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "instanceId" text;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "heartbeatAt" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_versions" ADD CONSTRAINT "message_versions_messageId_messages_id_fk" FOREIGN KEY ("messageId") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_versions" ADD CONSTRAINT "message_versions_replacedBy_user_id_fk" FOREIGN KEY ("replacedBy") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_versions_message_idx" ON "message_versions" USING btree ("messageId","createdAt");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_client_id_idx" ON "messages" USING btree ("conversationId","clientMessageId");--> statement-breakpoint
CREATE INDEX "messages_reply_to_idx" ON "messages" USING btree ("replyToMessageId");--> statement-breakpoint
CREATE INDEX "turns_status_idx" ON "turns" USING btree ("status");