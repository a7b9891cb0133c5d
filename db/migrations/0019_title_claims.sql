-- A title being generated for a conversation is claimed first, so that a second turn ending meanwhile, on this
-- instance or another, does not ask the title model again. A claim is released when its generation ends.
CREATE TABLE "title_claims" (
	"conversationId" uuid PRIMARY KEY NOT NULL,
	"claimedAt" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "title_claims" ADD CONSTRAINT "title_claims_conversationId_conversations_id_fk" FOREIGN KEY ("conversationId") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;