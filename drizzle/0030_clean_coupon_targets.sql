-- Coupons that still name products or categories deleted before deletions took them out of
-- coupons (issue 36): the missing ids go, and a coupon left naming nothing is deactivated rather
-- than widened to the whole store, as deleting does now (app/flows/delete-catalog.server.ts).
UPDATE "coupons" AS c
SET
  "product_ids" = kept.product_ids,
  "category_ids" = kept.category_ids,
  "active" = c."active" AND (cardinality(kept.product_ids) > 0 OR cardinality(kept.category_ids) > 0),
  "updated_at" = now()
FROM (
  SELECT
    "id",
    array(SELECT p FROM unnest("product_ids") AS p WHERE EXISTS (SELECT 1 FROM "products" WHERE "products"."id" = p)) AS product_ids,
    array(SELECT g FROM unnest("category_ids") AS g WHERE EXISTS (SELECT 1 FROM "categories" WHERE "categories"."id" = g)) AS category_ids
  FROM "coupons"
) AS kept
WHERE kept."id" = c."id"
  AND (cardinality(kept.product_ids) <> cardinality(c."product_ids")
    OR cardinality(kept.category_ids) <> cardinality(c."category_ids"));
