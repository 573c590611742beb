ALTER TABLE "orders" ADD COLUMN "client_address_hash" text;--> statement-breakpoint
CREATE INDEX "orders_pending_cpf_idx" ON "orders" USING btree ("customer_cpf") WHERE "orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "orders_pending_client_address_idx" ON "orders" USING btree ("client_address_hash") WHERE "orders"."status" = 'pending';