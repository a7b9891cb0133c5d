-- The context policy gained a section, `cache` (prompt-cache breakpoints and key, on by default): every stored
-- version gets it, so a policy saved before it existed resolves with the default.
UPDATE "settings_versions" SET "settings" = "settings" || '{"cache":{"breakpoints":"on"}}'::jsonb WHERE NOT ("settings" ? 'cache');
