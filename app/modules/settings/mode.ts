/**
 * A demo store is the sample store of a first start: its payments are pretend (the sandbox),
 * every page says so and search engines are asked to stay away. A live store is a real shop.
 * A demo becomes live once, for good (ADR 018).
 */
export type StoreMode = 'demo' | 'live';

/** Shown on every page of a demo store. */
export const DEMO_NOTICE = 'Loja de demonstração — nenhum pagamento é real';
