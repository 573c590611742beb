CREATE TABLE "restock_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_check";
--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "slug" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "slug" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "restock_requests" ADD CONSTRAINT "restock_requests_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "restock_requests_open_idx" ON "restock_requests" USING btree ("product_id","email") WHERE "restock_requests"."notified_at" is null;
--> statement-breakpoint
CREATE INDEX "restock_requests_created_at_idx" ON "restock_requests" USING btree ("created_at" DESC NULLS LAST);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_check" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."shipping_cost_cents" >= 0 and "orders"."discount_cents" >= 0 and "orders"."discount_cents" <= "orders"."subtotal_cents" and "orders"."total_amount_cents" >= 0);
--> statement-breakpoint
-- Readable addresses for products and categories. A slug is made once, from the name, when the
-- row is inserted (by the app, an import or plain SQL) and kept afterwards, so a link shared
-- yesterday still opens the product after a rename. Same folding as the search (vitrine_fold).
CREATE FUNCTION vitrine_slug(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT trim(both '-' from left(regexp_replace(vitrine_fold(value), '[^a-z0-9]+', '-', 'g'), 80)) $$;
--> statement-breakpoint
-- Fills an empty slug from the name; a taken one gets -2, -3… The fallback (TG_ARGV[0]) covers a
-- name with no letter or digit at all.
CREATE FUNCTION vitrine_set_slug() RETURNS trigger AS $$
DECLARE
  base text;
  candidate text;
  suffix integer := 1;
  taken boolean;
BEGIN
  NEW.slug := coalesce(vitrine_slug(NEW.slug), '');
  IF NEW.slug <> '' THEN
    RETURN NEW;
  END IF;
  base := coalesce(nullif(vitrine_slug(NEW.name), ''), TG_ARGV[0]);
  candidate := base;
  LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE slug = $1 AND id <> $2)', TG_TABLE_NAME)
      INTO taken USING candidate, NEW.id;
    EXIT WHEN NOT taken;
    suffix := suffix + 1;
    candidate := base || '-' || suffix;
  END LOOP;
  NEW.slug := candidate;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_slug BEFORE INSERT OR UPDATE OF slug ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_set_slug('produto');
--> statement-breakpoint
CREATE TRIGGER categories_slug BEFORE INSERT OR UPDATE OF slug ON categories
FOR EACH ROW EXECUTE FUNCTION vitrine_set_slug('categoria');
--> statement-breakpoint
-- Existing rows, oldest first, so the first product of a name keeps the plain slug.
DO $$
DECLARE
  row record;
BEGIN
  FOR row IN SELECT id FROM categories ORDER BY created_at, id LOOP
    UPDATE categories SET slug = '' WHERE id = row.id;
  END LOOP;
  FOR row IN SELECT id FROM products ORDER BY created_at, id LOOP
    UPDATE products SET slug = '' WHERE id = row.id;
  END LOOP;
END;
$$;
--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_idx" ON "categories" USING btree ("slug");
--> statement-breakpoint
CREATE UNIQUE INDEX "products_slug_idx" ON "products" USING btree ("slug");
