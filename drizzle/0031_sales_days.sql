CREATE TABLE "order_sales_days" (
	"time_zone" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"orders" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	CONSTRAINT "order_sales_days_time_zone_day_status_pk" PRIMARY KEY("time_zone","day","status")
);
--> statement-breakpoint
CREATE TABLE "order_sales_zones" (
	"time_zone" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_sales_days" ADD CONSTRAINT "order_sales_days_time_zone_order_sales_zones_time_zone_fk" FOREIGN KEY ("time_zone") REFERENCES "public"."order_sales_zones"("time_zone") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_check" CHECK ("orders"."discount_cents" >= 0);--> statement-breakpoint
-- The discounts of the orders already placed.
UPDATE "orders" SET "discount_cents" = a.cents
FROM (
  SELECT "order_id", -sum("amount_cents") AS cents FROM "order_adjustments"
  WHERE "amount_cents" < 0 GROUP BY "order_id"
) AS a
WHERE "orders"."id" = a."order_id";
--> statement-breakpoint
-- orders.discount_cents follows the order's adjustments, whoever writes them. A checkout writes
-- the figure with the order (pricing's discountTotal), so its adjustments find it right and
-- change nothing; anything else writing adjustments (plain SQL) has it worked out again. Per
-- statement: an order is looked at once however many of its adjustments the statement wrote.
CREATE FUNCTION vitrine_order_discount() RETURNS trigger AS $$
DECLARE
  touched uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT order_id) INTO touched FROM added;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT order_id) INTO touched FROM removed;
  ELSE
    SELECT array_agg(order_id) INTO touched
    FROM (SELECT order_id FROM added UNION SELECT order_id FROM removed) AS both_sides;
  END IF;
  UPDATE orders o SET discount_cents = d.cents
  FROM (
    SELECT t.id, coalesce((SELECT -sum(a.amount_cents) FROM order_adjustments a
                           WHERE a.order_id = t.id AND a.amount_cents < 0), 0) AS cents
    FROM unnest(touched) AS t (id)
  ) AS d
  WHERE o.id = d.id AND o.discount_cents <> d.cents;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER order_adjustments_discount_added AFTER INSERT ON order_adjustments
REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION vitrine_order_discount();
--> statement-breakpoint
CREATE TRIGGER order_adjustments_discount_changed AFTER UPDATE ON order_adjustments
REFERENCING OLD TABLE AS removed NEW TABLE AS added
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_order_discount();
--> statement-breakpoint
CREATE TRIGGER order_adjustments_discount_removed AFTER DELETE ON order_adjustments
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION vitrine_order_discount();
--> statement-breakpoint
-- An order placed, changed or deleted moves its count, total and discount from its old day and
-- status to its new ones, in every zone order_sales_zones lists. Deferred to the commit: the
-- day's row, which every order of the day updates, is locked only while the transaction commits,
-- not through the rest of a checkout. Each event carries the row as that event left it, so the
-- events of one transaction add up to the change from its start to its end, in any order. Each
-- event writes its rows in key order; two commits changing many orders of the same days at once
-- can still wait for each other in a circle, and PostgreSQL cancels one (ADR 040).
CREATE FUNCTION vitrine_order_sales_days() RETURNS trigger AS $$
BEGIN
  INSERT INTO order_sales_days AS s (time_zone, day, status, orders, total_cents, discount_cents)
  SELECT z.time_zone, c.day, c.status, sum(c.orders), sum(c.total_cents), sum(c.discount_cents)
  FROM order_sales_zones AS z
  CROSS JOIN LATERAL (
    SELECT (OLD.created_at AT TIME ZONE z.time_zone)::date, OLD.status, -1,
           -OLD.total_amount_cents, -OLD.discount_cents
    WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT (NEW.created_at AT TIME ZONE z.time_zone)::date, NEW.status, 1,
           NEW.total_amount_cents, NEW.discount_cents
    WHERE TG_OP <> 'DELETE'
  ) AS c (day, status, orders, total_cents, discount_cents)
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (time_zone, day, status) DO UPDATE SET
    orders = s.orders + excluded.orders,
    total_cents = s.total_cents + excluded.total_cents,
    discount_cents = s.discount_cents + excluded.discount_cents;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER orders_sales_days_placed_or_deleted AFTER INSERT OR DELETE ON orders
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vitrine_order_sales_days();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER orders_sales_days_changed AFTER UPDATE ON orders
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status
  OR OLD.created_at IS DISTINCT FROM NEW.created_at
  OR OLD.total_amount_cents IS DISTINCT FROM NEW.total_amount_cents
  OR OLD.discount_cents IS DISTINCT FROM NEW.discount_cents)
EXECUTE FUNCTION vitrine_order_sales_days();
--> statement-breakpoint
-- TRUNCATE fires no row trigger: the days go with the orders.
CREATE FUNCTION vitrine_order_sales_days_emptied() RETURNS trigger AS $$
BEGIN
  DELETE FROM order_sales_days;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER orders_sales_days_truncated AFTER TRUNCATE ON orders
FOR EACH STATEMENT EXECUTE FUNCTION vitrine_order_sales_days_emptied();
