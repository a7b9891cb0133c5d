-- A replay is an attempt of kind "replay" that names the attempt it replays (docs/features.md#replay).
ALTER TABLE "attempts" ADD COLUMN "replayOf" uuid;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_replayOf_attempts_id_fk" FOREIGN KEY ("replayOf") REFERENCES "public"."attempts"("id") ON DELETE set null ON UPDATE no action;