ALTER TABLE "restock_requests" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "restock_requests" ADD COLUMN "confirmation_sent_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "restock_requests" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "restock_requests_confirm_token_idx" ON "restock_requests" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "restock_requests_unconfirmed_idx" ON "restock_requests" USING btree ("confirmation_sent_at") WHERE "restock_requests"."confirmed_at" is null;