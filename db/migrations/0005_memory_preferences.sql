CREATE TABLE "memory_preferences" (
	"userId" text PRIMARY KEY NOT NULL,
	"sessionSummaries" boolean DEFAULT true NOT NULL,
	"updatedAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memory_preferences" ADD CONSTRAINT "memory_preferences_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;