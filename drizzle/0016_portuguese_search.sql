-- Portuguese search (ADR 024): 'fones' finds "Fone", 'Teclados' finds "Teclado". PostgreSQL's
-- snowball stemmer for Portuguese (the 'portuguese' text search configuration, in core
-- PostgreSQL and in PGlite alike, no extension) runs on text already folded by vitrine_fold, so
-- that what a shopper types without accents stems like the accented name. Folded, the stemmer
-- no longer sees the plurals it knows by their accents (limões, pães, papéis) and it leaves short
-- words alone (ovos, sons): vitrine_singular turns those into their singular first. Words of
-- text folded by vitrine_fold (lowercase a–z and digits) are rewritten at their end:
--   -oes, -aes, -aos → -ao    limoes, paes, graos
--   -eis, -ois, -uis, -ais → -el, -ol, -ul, -al (two letters before at least: not mais, pais)
--   -ns → -m                  sons, itens, jardins
--   -res, -zes, -les → without -es         flores, luzes, males
--   a vowel and -s → without -s (three letters before at least: not das, dos, mas)
--   b, d, f, g, k, p, t or w and -s → without -s: borrowed words (headsets, notebooks)
-- Both sides of a search go through it, so a word it mangles still finds itself.
CREATE FUNCTION vitrine_singular(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(value,
  '([a-z])(oes|aes|aos)\M', '\1ao', 'g'),
  '([a-z]{2}[eoua])is\M', '\1l', 'g'),
  '([a-z])ns\M', '\1m', 'g'),
  '([a-z]{2}[rzl])es\M', '\1', 'g'),
  '([a-z]{2}[aeiou])s\M', '\1', 'g'),
  '([a-z]{2}[bdfgkptw])s\M', '\1', 'g') $$;
--> statement-breakpoint
-- Text folded and singular as its words' stems in order, one space apart; a stopword ('de')
-- stays as it is, so that a phrase typed still reads as one ('fon de ouv').
CREATE FUNCTION vitrine_stems(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT coalesce(string_agg(
    coalesce((pg_catalog.tsvector_to_array(pg_catalog.to_tsvector('pg_catalog.portuguese', word)))[1], word),
    ' ' ORDER BY n), '')
  FROM pg_catalog.regexp_split_to_table(value, '[^a-z0-9]+') WITH ORDINALITY AS t(word, n)
  WHERE word <> ''
$$;
--> statement-breakpoint
-- What a search matches besides the substrings of search_text, and an index for it. Stemmed
-- when a product is written, not on every search. fastupdate = off, as in 0004: PGlite has no
-- autovacuum to flush GIN's pending list.
ALTER TABLE "products" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('pg_catalog.portuguese', vitrine_singular(vitrine_fold("name" || ' ' || "description")))) STORED;
--> statement-breakpoint
CREATE INDEX "products_search_vector_idx" ON "products" USING gin ("search_vector") WITH (fastupdate = off);
--> statement-breakpoint
-- The name's stems as ' stem stem … ', for the relevance of the words a search found by stem.
ALTER TABLE "products" ADD COLUMN "name_stems" text
  GENERATED ALWAYS AS (' ' || vitrine_stems(vitrine_singular(vitrine_fold("name"))) || ' ') STORED;
