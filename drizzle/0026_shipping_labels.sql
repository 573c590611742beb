ALTER TABLE "orders" ADD COLUMN "shipping_label" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "label_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "orders_label_shipment_idx" ON "orders" USING btree (("shipping_label"->>'shipmentId')) WHERE "orders"."shipping_label" is not null;