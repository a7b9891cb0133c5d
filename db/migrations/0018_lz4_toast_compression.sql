-- The large JSON values a turn writes (an attempt's items, requests and trace; a message's parts; an artifact's
-- payload) are compressed with lz4 instead of Postgres's default pglz when they go to TOAST. pglz on jsonb was
-- most of the Postgres CPU of an attempt's insert; lz4 compresses and decompresses several times faster for a
-- slightly larger value. Values stored before keep their compression (both are read back alike). A server built
-- without lz4 (PGlite's) keeps pglz.
DO $$
BEGIN
  ALTER TABLE "attempts"
    ALTER COLUMN "items" SET COMPRESSION lz4,
    ALTER COLUMN "requests" SET COMPRESSION lz4,
    ALTER COLUMN "trace" SET COMPRESSION lz4;
  ALTER TABLE "messages" ALTER COLUMN "parts" SET COMPRESSION lz4;
  ALTER TABLE "artifacts" ALTER COLUMN "payload" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not built into this server: TOAST values keep pglz';
END $$;
