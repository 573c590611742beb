-- The search's relevance compares what was typed with the product's name, folded and as words
-- (app/modules/catalog/search.server.ts). Folded once when a product is written, not for every
-- matching row of every search: with thousands of matches that was most of a search's time.
ALTER TABLE "products" ADD COLUMN "name_folded" text
  GENERATED ALWAYS AS (vitrine_fold("name")) STORED;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "name_words" text
  GENERATED ALWAYS AS (' ' || trim(regexp_replace(vitrine_fold("name"), '[^a-z0-9]+', ' ', 'g'))) STORED;
