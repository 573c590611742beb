/**
 * The store's name after a preposition: "na loja Empório Café", "à loja TechStore". The noun
 * carries the article, so a store's name is never given a gender it may not have ('à Empório');
 * a name that already starts with 'Loja' needs no second one.
 */
export function storeAfter(preposition: 'na' | 'da' | 'à', name: string): string {
  return /^loja\b/iu.test(name.trim()) ? `${preposition} ${name}` : `${preposition} loja ${name}`;
}
