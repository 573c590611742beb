import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import journal from '../../drizzle/meta/_journal.json';

import { describeDb, queryRows } from '../support/db';

describeDb('migrations', ({ database, db }) => {
  it('create every table of the schema', async () => {
    const tables = await queryRows<{ table_name: string }>(
      db(),
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      'abandoned_checkouts',
      'admin_password_resets',
      'admin_setup_codes',
      'admin_users',
      'categories',
      'coupons',
      'erp_connections',
      'erp_oauth_states',
      'erp_orders',
      'media',
      'media_variants',
      'order_adjustments',
      'order_events',
      'order_items',
      'order_sales_days',
      'order_sales_zones',
      'orders',
      'outbox',
      'product_variants',
      'products',
      'provider_tokens',
      'rate_limits',
      'recovery_keys',
      'recovery_opt_outs',
      'recurring_runs',
      'restock_requests',
      'reviews',
      'sandbox_payments',
      'sessions',
      'shipping_quotes',
      'shopper_addresses',
      'shopper_codes',
      'shopper_favorites',
      'shopper_sessions',
      'shoppers',
      'store_connections',
      'store_settings',
    ]);
  });

  it('create the indexes the storefront and admin queries use', async () => {
    const indexes = await queryRows<{ indexname: string }>(
      db(),
      sql`select indexname from pg_indexes where schemaname = 'public'`,
    );
    const names = indexes.map((row) => row.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'products_created_at_idx',
        'products_category_created_at_idx',
        'reviews_product_created_at_idx',
        'orders_token_created_at_idx',
        'orders_email_created_at_idx',
        'shopper_codes_email_idx',
        'orders_status_created_at_idx',
        'orders_search_text_trgm_idx',
        'order_events_order_id_idx',
        'order_items_order_id_idx',
        'admin_users_email_idx',
        'outbox_pending_run_at_idx',
        'orders_idempotency_key_idx',
        'orders_pending_expires_at_idx',
      ]),
    );
  });

  it('can run again without changing anything', async () => {
    await database().migrate();
    const [row] = await queryRows<{ count: number }>(
      db(),
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    expect(row?.count).toBe(journal.entries.length);
  });

  it('guard money, stock, ratings and statuses in the database itself', async () => {
    await expect(
      db().execute(sql`insert into products (name, price_cents) values ('x', -1)`),
    ).rejects.toThrow();
    await expect(
      db().execute(
        sql`insert into products (name, price_cents, stock_quantity) values ('x', 100, -5)`,
      ),
    ).rejects.toThrow();
    await expect(db().execute(sql`insert into store_settings (id) values (2)`)).rejects.toThrow();
  });

  it('keep the functions the servers of the version before call while a deploy replaces them', async () => {
    // 0039's count of a placer's unpaid orders, which checkouts of the version before 0040 call.
    const [open] = await queryRows<{ browser: number; cpf: number; address: number }>(
      db(),
      sql`select browser, cpf, address
          from vitrine_lock_open_orders(array['vitrine:open-orders:token:t']::text[], 't', '52998224725', null)`,
    );
    expect(open).toEqual({ browser: 0, cpf: 0, address: 0 });
  });
});
