-- /sitemap.xml lists products most recently changed first (app/modules/catalog/sitemap.server.ts):
-- read in that order off this index instead of sorting the whole table.
CREATE INDEX "products_updated_at_idx" ON "products" USING btree ("updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
