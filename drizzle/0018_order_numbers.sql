CREATE SEQUENCE "public"."orders_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "number" integer;--> statement-breakpoint
-- Orders placed before numbers existed get theirs in the order they were placed, from 1001; the
-- sequence then goes on after the last one.
UPDATE "orders" SET "number" = numbered.n
  FROM (SELECT "id", 1000 + row_number() OVER (ORDER BY "created_at", "id") AS n FROM "orders") AS numbered
  WHERE "orders"."id" = numbered."id";--> statement-breakpoint
SELECT setval('orders_number_seq', max("number")) FROM "orders" HAVING count(*) > 0;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET DEFAULT nextval('orders_number_seq');--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER SEQUENCE "orders_number_seq" OWNED BY "orders"."number";--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_idx" ON "orders" USING btree ("number");
