ALTER TABLE "attachments" ADD COLUMN "originUrl" text;--> statement-breakpoint
-- Audio and PDF documents became model capabilities: the built-in models already in the registry get the
-- catalogue's values, every other row takes neither until an admin says otherwise.
UPDATE "models" SET "capabilities" = "capabilities" || '{"audio":true,"documents":true}'::jsonb WHERE "id" = 'google:gemini-2.5-flash' AND NOT ("capabilities" ? 'audio');--> statement-breakpoint
UPDATE "models" SET "capabilities" = "capabilities" || '{"audio":false,"documents":true}'::jsonb WHERE "id" IN ('openai:gpt-4.1-mini', 'openai:gpt-4o', 'openai:gpt-5-mini') AND NOT ("capabilities" ? 'audio');--> statement-breakpoint
UPDATE "models" SET "capabilities" = "capabilities" || '{"audio":false,"documents":false}'::jsonb WHERE NOT ("capabilities" ? 'audio');
