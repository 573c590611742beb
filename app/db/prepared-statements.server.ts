import type { SQL } from 'drizzle-orm';
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
 * What is built once per shape and run on any database handle: Drizzle's prepared queries
 * (`query.prepare()`) for the statements the storefront sends on nearly every request, and those
 * every order sends in its transaction. In a profile of `POST /checkout`, Drizzle building its
 * queries (walking their columns and SQL chunks) took more of the server's CPU than
 * node-postgres sending them and reading the answers. A query whose shape varies (a list of ids of
 * some length, an order's number of lines) is built once per `shape` its caller names (`key`
 * gives the shape's name when it is more than a string).
 *
 * A prepared query holds the connection of the handle it was built on. Each call gets it on the
 * connection of the handle it is given (the pool, a transaction's connection, PGlite or a
 * transaction of its thread), so a transaction's statement sees what the transaction wrote and
 * waits on nothing outside it. Drizzle has no call for that: its prepared queries keep the
 * connection in `client`, as its sessions do; a version that stops doing so fails loudly here,
 * not by running a statement outside its transaction.
 */
export function preparedPer<Handle extends object, Query extends object, Shape = string>(
  build: (db: Handle, shape: Shape) => Query,
  key: (shape: Shape) => string = String,
): (db: Handle, shape?: Shape) => Query {
  // By driver too: a query built for node-postgres cannot run on PGlite (tests open both).
  const built = new WeakMap<object, Map<string, Query>>();
  return (db, shape = '' as Shape) => {
    const session = sessionOf(db);
    let queries = built.get(session.constructor);
    if (!queries) built.set(session.constructor, (queries = new Map()));
    const name = key(shape);
    let query = queries.get(name);
    if (query === undefined) queries.set(name, (query = build(db, shape)));
    if (!('client' in query)) throw new Error('A prepared query must name its connection');
    if (query.client === session.client) return query;
    return Object.assign(Object.create(Object.getPrototypeOf(query) as object) as Query, query, {
      client: session.client,
    });
  };
}

function sessionOf(db: object): { client: unknown; constructor: object } {
  const session = (db as { _?: { session?: { client?: unknown } } })._?.session;
  if (!session?.client) throw new Error('A prepared query runs only on a Drizzle handle');
  return session as { client: unknown; constructor: object };
}

/**
 * A part of another module's statement (a `with` of its own write), built once per shape with
 * its values as placeholders: `key` names what its SQL depends on besides those values, `build`
 * writes it, `values` are this time's, by placeholder name.
 */
export interface StatementPart<Handle> {
  key: string;
  build(db: Handle): { getSQL(): SQL };
  values: Record<string, unknown>;
}

/**
 * Another module's conditional write in a statement (a line's units of stock, a coupon's use): it
 * returns a row when it took what it claims, and writes only when `after` holds, a condition the
 * statement gives it. So the statement takes its claims one after the other, in the order given,
 * and refuses the whole when one took nothing (ADR 056). `key` and `values` as StatementPart's.
 */
export interface ClaimPart<Handle> {
  key: string;
  build(db: Handle, after: SQL): { getSQL(): SQL };
  values: Record<string, unknown>;
}
