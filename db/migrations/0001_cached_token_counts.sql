ALTER TABLE "artifacts" ADD COLUMN "tokenCounts" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "segmentTokenCounts" jsonb;