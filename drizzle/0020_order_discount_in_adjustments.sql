ALTER TABLE "order_adjustments" DROP CONSTRAINT "order_adjustments_coupon_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_check";--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "discount_cents";--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD CONSTRAINT "order_adjustments_coupon_check" CHECK (("order_adjustments"."kind" = 'coupon') = ("order_adjustments"."coupon_id" is not null and "order_adjustments"."coupon_code" is not null));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_check" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."shipping_cost_cents" >= 0 and "orders"."total_amount_cents" >= 0);