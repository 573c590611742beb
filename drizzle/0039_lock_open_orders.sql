-- The limit of unpaid orders per browser, CPF and client address (max_pending_orders) is counted
-- under transaction locks on the placer's keys, so a burst of parallel checkouts cannot pass it.
-- The count must see the orders of every checkout that held those locks before: in READ
-- COMMITTED a statement's snapshot is taken as it starts, so the count could not share the
-- locking statement, and each order paid a round trip for each (issue 37). A volatile function
-- takes a new snapshot for each statement it runs: here both go in one call.
--
-- lock_names: the placer's keys; locked in the order of their lock numbers, so two checkouts
-- sharing keys never deadlock. Counted: pending orders not paid whose PIX deadline has not
-- passed, of this browser (token), this CPF and this client address (its hash, or none), and
-- this browser's newest one.
CREATE FUNCTION vitrine_lock_open_orders(
  lock_names text[],
  placer_token text,
  placer_cpf text,
  placer_address_hash text
) RETURNS TABLE (browser integer, cpf integer, address integer, browser_order_id uuid) AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(k)
    FROM (SELECT DISTINCT hashtextextended(name, 0) AS k FROM unnest(lock_names) AS name) AS keys
    ORDER BY k;
  RETURN QUERY
    SELECT
      (count(*) FILTER (WHERE o.order_token = placer_token))::integer,
      (count(*) FILTER (WHERE o.customer_cpf = placer_cpf))::integer,
      (count(*) FILTER (WHERE o.client_address_hash = placer_address_hash))::integer,
      (array_agg(o.id ORDER BY o.created_at DESC) FILTER (WHERE o.order_token = placer_token))[1]
    FROM orders o
    WHERE o.status = 'pending'
      AND o.paid_at IS NULL
      AND (o.expires_at IS NULL OR o.expires_at > now())
      AND (o.order_token = placer_token
        OR o.customer_cpf = placer_cpf
        OR o.client_address_hash = placer_address_hash);
END
$$ LANGUAGE plpgsql VOLATILE;
