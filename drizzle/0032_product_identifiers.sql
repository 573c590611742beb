-- Issue 39: what Google Merchant Center and Meta's catalogue identify products by. The GTIN's
-- check digit is the forms' to check; the database keeps its shape.
ALTER TABLE "product_variants" ADD COLUMN "gtin" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "mpn" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "brand" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "google_product_category" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "condition" text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_gtin_check" CHECK ("product_variants"."gtin" = '' or "product_variants"."gtin" ~ '^([0-9]{8}|[0-9]{12,14})$');--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_condition_check" CHECK ("products"."condition" in ('new', 'used', 'refurbished'));