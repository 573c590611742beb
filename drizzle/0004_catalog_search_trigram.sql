-- A trigram index lets the catalogue search skip the products that cannot match instead of
-- reading them all. pg_trgm ships with PostgreSQL's contrib and with PGlite (when the app loads
-- it), but a server may lack it or refuse it to this user: then the search keeps working by
-- scanning, just more slowly with many products.
-- fastupdate = off: PGlite has no autovacuum to flush GIN's pending list, and while entries wait
-- there the planner prices the index too high to use it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS "products_search_text_trgm_idx"
      ON "products" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate = off);
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'Catalogue search without a trigram index: %', SQLERRM;
END $$;
