ALTER TABLE "messages" ADD COLUMN "parentMessageId" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "chosenAmongSiblings" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_parent_idx" ON "messages" USING btree ("parentMessageId");--> statement-breakpoint
-- >>> Hand-written backfill.
-- The tree of the messages stored before it: each one's choice among its siblings is what is shown now.
UPDATE "messages" SET "chosenAmongSiblings" = "chosen";--> statement-breakpoint
-- A reply's parent is the message it answers.
UPDATE "messages" SET "parentMessageId" = "replyToMessageId"
  WHERE "authorType" = 'persona' AND "replyToMessageId" IS NOT NULL;--> statement-breakpoint
-- Any other message's parent is the shown message before it (until now only reply variants were unchosen).
UPDATE "messages" AS "child" SET "parentMessageId" = (
  SELECT "previous"."id" FROM "messages" AS "previous"
  WHERE "previous"."conversationId" = "child"."conversationId" AND "previous"."chosen"
    AND "previous"."seq" < "child"."seq"
  ORDER BY "previous"."seq" DESC LIMIT 1
) WHERE NOT ("child"."authorType" = 'persona' AND "child"."replyToMessageId" IS NOT NULL);
-- <<< End of the hand-written backfill.
