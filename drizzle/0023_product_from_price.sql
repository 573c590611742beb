DROP INDEX "products_price_cents_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "from_price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The cheapest variant's price, what the catalogue's card shows ('a partir de'), sorts and
-- filters by. A variant without a price of its own costs the product's.
CREATE FUNCTION vitrine_product_from_price() RETURNS trigger AS $$
BEGIN
  NEW.from_price_cents := coalesce(
    (SELECT min(coalesce(v.price_cents, NEW.price_cents)) FROM product_variants v
      WHERE v.product_id = NEW.id),
    NEW.price_cents);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
UPDATE products SET from_price_cents = coalesce(
  (SELECT min(coalesce(v.price_cents, products.price_cents)) FROM product_variants v
    WHERE v.product_id = products.id),
  products.price_cents);
--> statement-breakpoint
CREATE INDEX "products_from_price_cents_idx" ON "products" USING btree ("from_price_cents","id");--> statement-breakpoint
-- Worked out again on every write of either price, whoever writes it (the admin, an import,
-- plain SQL); a direct write of the column itself is worked out again too.
CREATE TRIGGER products_from_price BEFORE INSERT OR UPDATE OF price_cents, from_price_cents
ON products FOR EACH ROW EXECUTE FUNCTION vitrine_product_from_price();
--> statement-breakpoint
-- A variant's price changing (or a variant coming or going) touches the column, and the trigger
-- above works it out. A sale writes only stock, so it never gets here.
CREATE FUNCTION vitrine_variant_from_price() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.price_cents IS NOT DISTINCT FROM OLD.price_cents
    AND NEW.product_id = OLD.product_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE products SET from_price_cents = 0 WHERE id = OLD.product_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.product_id <> OLD.product_id) THEN
    UPDATE products SET from_price_cents = 0 WHERE id = NEW.product_id;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER product_variants_from_price
AFTER INSERT OR UPDATE OF price_cents, product_id OR DELETE ON product_variants
FOR EACH ROW EXECUTE FUNCTION vitrine_variant_from_price();
