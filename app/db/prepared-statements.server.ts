import type pg from 'pg';

/**
 * How many statements each PostgreSQL connection keeps prepared. The app sends a few dozen
 * statement shapes again and again (a purchase's fifteen, the storefront's reads); those come
 * first and stay. What comes after the limit (a rare admin filter, an IN list of a new length)
 * is sent as before, so a connection's prepared statements stay bounded. Drizzle's prepared
 * queries (preparedPer) come on top, under names of their own: the code holds a fixed number.
 */
export const PREPARED_PER_CONNECTION = 200;

/**
 * Sends each statement with parameters as a named prepared statement on every connection the pool
 * opens (ADR 050): PostgreSQL parses and plans it the first time, then only binds and runs it.
 * Parsing and planning were most of a simple statement's cost in PostgreSQL, and Drizzle names
 * none itself. Statements without parameters (migrations' files, `begin`, `select 1`) go as they
 * are: a file may hold several statements, which a prepared statement cannot.
 *
 * A pooler between the app and PostgreSQL must keep prepared statements per client (PgBouncer
 * 1.21+ with `max_prepared_statements`, in transaction mode).
 */
export function prepareRepeatedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const names = new Map<string, string>();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      if (
        config &&
        typeof config === 'object' &&
        'text' in config &&
        !('name' in config && config.name) &&
        hasParameters(config, values)
      ) {
        const text = (config as pg.QueryConfig).text;
        let name = names.get(text);
        if (name === undefined && names.size < PREPARED_PER_CONNECTION) {
          name = `vitrine_${names.size}`;
          names.set(text, name);
        }
        if (name !== undefined) config = { ...config, name };
      }
      return query(config, values, callback);
    }) as typeof client.query;
  });
}

function hasParameters(config: object, values: unknown): boolean {
  const given = Array.isArray(values) ? values : (config as pg.QueryConfig).values;
  return Array.isArray(given) && given.length > 0;
}

/**
 * What is built once for each database handle: Drizzle's prepared queries (`query.prepare()`) for
 * the few the storefront sends on nearly every request. In a profile of `POST /checkout`, Drizzle
 * building its queries (walking their columns and SQL chunks) took more of the server's CPU than
 * node-postgres sending them and reading the answers. A prepared query is bound to its handle, so
 * each database and each transaction gets its own; a query whose shape varies (a list of ids of
 * some length) is built once per `shape` its caller names.
 */
export function preparedPer<Handle extends object, Query>(
  build: (db: Handle, shape: string) => Query,
): (db: Handle, shape?: string) => Query {
  const built = new WeakMap<Handle, Map<string, Query>>();
  return (db, shape = '') => {
    let shapes = built.get(db);
    if (!shapes) built.set(db, (shapes = new Map()));
    let query = shapes.get(shape);
    if (query === undefined) {
      query = build(db, shape);
      shapes.set(shape, query);
    }
    return query;
  };
}
