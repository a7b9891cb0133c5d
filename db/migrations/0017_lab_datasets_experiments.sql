CREATE TABLE "datasets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"userId" text NOT NULL,
	"name" text NOT NULL,
	"conversationIds" jsonb NOT NULL,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiment_results" (
	"experimentId" uuid NOT NULL,
	"position" integer NOT NULL,
	"conversationId" uuid NOT NULL,
	"summary" jsonb NOT NULL,
	"payloads" text,
	"error" text,
	CONSTRAINT "experiment_results_experimentId_position_pk" PRIMARY KEY("experimentId","position")
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"datasetId" uuid NOT NULL,
	"userId" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"candidate" jsonb NOT NULL,
	"live" boolean DEFAULT false NOT NULL,
	"text" text NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer NOT NULL,
	"error" text,
	"createdAt" timestamp with time zone DEFAULT now() NOT NULL,
	"updatedAt" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_results" ADD CONSTRAINT "experiment_results_experimentId_experiments_id_fk" FOREIGN KEY ("experimentId") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_datasetId_datasets_id_fk" FOREIGN KEY ("datasetId") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "datasets_user_idx" ON "datasets" USING btree ("userId","createdAt");--> statement-breakpoint
CREATE INDEX "experiments_dataset_idx" ON "experiments" USING btree ("datasetId","createdAt");