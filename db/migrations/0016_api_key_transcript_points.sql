CREATE TABLE "api_key_transcript_points" (
	"apiKeyId" uuid NOT NULL,
	"transcriptHash" text NOT NULL,
	"conversationId" uuid NOT NULL,
	"messageId" uuid NOT NULL,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_key_transcript_points_apiKeyId_transcriptHash_messageId_pk" PRIMARY KEY("apiKeyId","transcriptHash","messageId")
);
--> statement-breakpoint
ALTER TABLE "api_key_transcript_points" ADD CONSTRAINT "api_key_transcript_points_apiKeyId_api_keys_id_fk" FOREIGN KEY ("apiKeyId") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_transcript_points" ADD CONSTRAINT "api_key_transcript_points_conversationId_conversations_id_fk" FOREIGN KEY ("conversationId") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_transcript_points" ADD CONSTRAINT "api_key_transcript_points_messageId_messages_id_fk" FOREIGN KEY ("messageId") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;