CREATE TABLE "shipping_quotes" (
	"key" text PRIMARY KEY NOT NULL,
	"quotes" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method" jsonb;--> statement-breakpoint
CREATE INDEX "shipping_quotes_expires_at_idx" ON "shipping_quotes" USING btree ("expires_at");