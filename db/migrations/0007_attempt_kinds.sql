-- Every model call is an attempt: summaries, titles and write-as-me drafts too. Attempts name their conversation
-- (existing ones take their turn's) and their kind; only a reply's attempts belong to a turn.
ALTER TABLE "attempts" ALTER COLUMN "turnId" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "conversationId" uuid;--> statement-breakpoint
UPDATE "attempts" SET "conversationId" = "turns"."conversationId" FROM "turns" WHERE "turns"."id" = "attempts"."turnId";--> statement-breakpoint
ALTER TABLE "attempts" ALTER COLUMN "conversationId" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "kind" text DEFAULT 'reply' NOT NULL;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_conversationId_conversations_id_fk" FOREIGN KEY ("conversationId") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attempts_conversation_idx" ON "attempts" USING btree ("conversationId","createdAt");
