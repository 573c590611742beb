CREATE TABLE "product_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"position" integer DEFAULT 1 NOT NULL,
	"sku" text DEFAULT '' NOT NULL,
	"option1" text,
	"option2" text,
	"option3" text,
	"price_cents" integer,
	"compare_at_price_cents" integer,
	"stock_quantity" integer DEFAULT 0 NOT NULL,
	"weight_grams" integer,
	"length_mm" integer,
	"width_mm" integer,
	"height_mm" integer,
	"image_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_options_key" UNIQUE NULLS NOT DISTINCT("product_id","option1","option2","option3"),
	CONSTRAINT "product_variants_price_cents_check" CHECK ("product_variants"."price_cents" >= 0),
	CONSTRAINT "product_variants_compare_at_price_cents_check" CHECK ("product_variants"."compare_at_price_cents" >= 0),
	CONSTRAINT "product_variants_stock_quantity_check" CHECK ("product_variants"."stock_quantity" >= 0),
	CONSTRAINT "product_variants_measures_check" CHECK ("product_variants"."weight_grams" >= 0 and "product_variants"."length_mm" >= 0 and "product_variants"."width_mm" >= 0 and "product_variants"."height_mm" >= 0)
);
--> statement-breakpoint
DROP INDEX "restock_requests_open_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "restock_requests" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_id" uuid;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "variant_options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_idx" ON "product_variants" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id","position");--> statement-breakpoint
ALTER TABLE "restock_requests" ADD CONSTRAINT "restock_requests_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_variant_id_product_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A variant's SKU, when none is given: the product's slug and the variant's values in capitals
-- (CAMISETA-BASICA-G-AZUL), a taken one with -2, -3…
CREATE FUNCTION vitrine_set_sku() RETURNS trigger AS $$
DECLARE
  base text;
  candidate text;
  suffix integer := 1;
BEGIN
  NEW.sku := btrim(NEW.sku);
  IF NEW.sku <> '' THEN
    RETURN NEW;
  END IF;
  SELECT upper(concat_ws('-', nullif(p.slug, ''), nullif(vitrine_slug(NEW.option1), ''),
      nullif(vitrine_slug(NEW.option2), ''), nullif(vitrine_slug(NEW.option3), '')))
    INTO base FROM products p WHERE p.id = NEW.product_id;
  base := coalesce(nullif(base, ''), 'SKU');
  candidate := base;
  WHILE EXISTS (SELECT 1 FROM product_variants WHERE sku = candidate AND id <> NEW.id) LOOP
    suffix := suffix + 1;
    candidate := base || '-' || suffix;
  END LOOP;
  NEW.sku := candidate;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER product_variants_sku BEFORE INSERT OR UPDATE OF sku ON product_variants
FOR EACH ROW EXECUTE FUNCTION vitrine_set_sku();
--> statement-breakpoint
-- Today's products become products of one default variant, with their stock (before the
-- trigger below would add it to the product a second time); orders and restock requests name it.
INSERT INTO product_variants (product_id, stock_quantity, created_at)
SELECT id, stock_quantity, created_at FROM products ORDER BY created_at, id;
--> statement-breakpoint
UPDATE order_items oi SET variant_id = v.id, sku = v.sku
FROM product_variants v WHERE v.product_id = oi.product_id;
--> statement-breakpoint
UPDATE restock_requests r SET variant_id = v.id
FROM product_variants v WHERE v.product_id = r.product_id;
--> statement-breakpoint
ALTER TABLE "restock_requests" ALTER COLUMN "variant_id" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "restock_requests_open_idx" ON "restock_requests" USING btree ("variant_id","email") WHERE "restock_requests"."notified_at" is null;
--> statement-breakpoint
-- products.stock_quantity stays the sum of the product's variants' stock, whoever changes one
-- (a sale, the admin, an import, psql). Changes made by the triggers below (depth > 1) are
-- already accounted for.
CREATE FUNCTION vitrine_sum_variant_stock() RETURNS trigger AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.product_id = OLD.product_id THEN
    UPDATE products
    SET stock_quantity = stock_quantity + NEW.stock_quantity - OLD.stock_quantity, updated_at = now()
    WHERE id = NEW.product_id AND NEW.stock_quantity <> OLD.stock_quantity;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE products SET stock_quantity = stock_quantity - OLD.stock_quantity, updated_at = now()
    WHERE id = OLD.product_id AND OLD.stock_quantity <> 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE products SET stock_quantity = stock_quantity + NEW.stock_quantity, updated_at = now()
    WHERE id = NEW.product_id AND NEW.stock_quantity <> 0;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER product_variants_stock
AFTER INSERT OR UPDATE OF stock_quantity, product_id OR DELETE ON product_variants
FOR EACH ROW EXECUTE FUNCTION vitrine_sum_variant_stock();
--> statement-breakpoint
-- What wrote products.stock_quantity before variants (an older script, plain SQL) keeps working
-- for a product sold as one variant: the stock goes to that variant. A product with several
-- has no stock of its own to set.
CREATE FUNCTION vitrine_product_stock_to_variant() RETURNS trigger AS $$
DECLARE
  variants integer;
BEGIN
  IF pg_trigger_depth() > 1 OR NEW.stock_quantity = OLD.stock_quantity THEN
    RETURN NEW;
  END IF;
  SELECT count(*) INTO variants FROM product_variants WHERE product_id = NEW.id;
  IF variants = 1 THEN
    UPDATE product_variants SET stock_quantity = NEW.stock_quantity, updated_at = now()
    WHERE product_id = NEW.id;
  ELSIF variants > 1 THEN
    RAISE EXCEPTION 'products.stock_quantity of a product with variants is the sum of theirs: change the variants'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER products_stock_to_variant BEFORE UPDATE OF stock_quantity ON products
FOR EACH ROW EXECUTE FUNCTION vitrine_product_stock_to_variant();
--> statement-breakpoint
-- A product inserted without variants (by SQL, an older import, a script) gets its default one
-- at commit, with the product row's stock (its price stays the product's): one written with its
-- variants in the same transaction gets none.
CREATE FUNCTION vitrine_default_variant() RETURNS trigger AS $$
BEGIN
  INSERT INTO product_variants (product_id, stock_quantity)
  SELECT p.id, p.stock_quantity FROM products p
  WHERE p.id = NEW.id AND NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = p.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_default_variant AFTER INSERT ON products
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION vitrine_default_variant();
--> statement-breakpoint
-- Every product keeps at least one variant: it is what the shopper buys.
CREATE FUNCTION vitrine_keep_a_variant() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM products WHERE id = OLD.product_id)
    AND NOT EXISTS (SELECT 1 FROM product_variants WHERE product_id = OLD.product_id) THEN
    RAISE EXCEPTION 'product % would have no variant left', OLD.product_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER product_variants_keep_one AFTER DELETE ON product_variants
DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION vitrine_keep_a_variant();
--> statement-breakpoint
-- A variant's price, stock or pictures are on the storefront's pages: drop them (drizzle/0009).
CREATE TRIGGER product_variants_storefront_changed
AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_variants
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_notify_storefront_changed();
