ALTER TABLE "models" ADD COLUMN "prices" jsonb;--> statement-breakpoint
-- Built-in models already in the registry get the catalogue's list prices (US dollars per million tokens).
UPDATE "models" SET "prices" = '{"inputPerMillion":0,"cachedInputPerMillion":0,"outputPerMillion":0}'::jsonb WHERE "id" IN ('offline:echo', 'google:gemma-3-27b-it') AND "prices" IS NULL;--> statement-breakpoint
UPDATE "models" SET "prices" = '{"inputPerMillion":0.4,"cachedInputPerMillion":0.1,"outputPerMillion":1.6}'::jsonb WHERE "id" = 'openai:gpt-4.1-mini' AND "prices" IS NULL;--> statement-breakpoint
UPDATE "models" SET "prices" = '{"inputPerMillion":2.5,"cachedInputPerMillion":1.25,"outputPerMillion":10}'::jsonb WHERE "id" = 'openai:gpt-4o' AND "prices" IS NULL;--> statement-breakpoint
UPDATE "models" SET "prices" = '{"inputPerMillion":0.25,"cachedInputPerMillion":0.025,"outputPerMillion":2}'::jsonb WHERE "id" = 'openai:gpt-5-mini' AND "prices" IS NULL;--> statement-breakpoint
UPDATE "models" SET "prices" = '{"inputPerMillion":0.3,"cachedInputPerMillion":0.075,"outputPerMillion":2.5}'::jsonb WHERE "id" = 'google:gemini-2.5-flash' AND "prices" IS NULL;
