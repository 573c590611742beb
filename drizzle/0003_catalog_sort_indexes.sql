DROP INDEX "products_created_at_idx";--> statement-breakpoint
DROP INDEX "products_category_created_at_idx";--> statement-breakpoint
DROP INDEX "products_price_cents_idx";--> statement-breakpoint
CREATE INDEX "products_created_at_idx" ON "products" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_category_created_at_idx" ON "products" USING btree ("category_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "products_price_cents_idx" ON "products" USING btree ("price_cents","id");