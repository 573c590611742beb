-- Catalogue search that ignores case and accents ("cafe" finds "Café", "AUDIO" finds "Áudio")
-- with nothing beyond core PostgreSQL: unaccent and pg_trgm are extensions that PGlite and some
-- hosted servers lack. Decomposing first (NFD) strips every Latin accent, also from text pasted
-- already decomposed, and lower() then only has plain letters left, whatever the locale.
CREATE FUNCTION vitrine_fold(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT lower(regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g')) $$;
--> statement-breakpoint
-- Folded once when a product is written, not on every search. Kept out of the Drizzle schema so
-- product reads never carry a second copy of the description.
ALTER TABLE "products" ADD COLUMN "search_text" text
  GENERATED ALWAYS AS (vitrine_fold("name" || ' ' || "description")) STORED;
--> statement-breakpoint
-- Sorting by name the way a Brazilian reads it (Água before Zinco, not after).
CREATE INDEX "products_name_folded_idx" ON "products" USING btree (vitrine_fold("name"), "id");
