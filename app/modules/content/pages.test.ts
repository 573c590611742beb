import { expect, it } from 'vitest';

import { contentPageSlug } from './pages';

it('finds the content page of a URL path', () => {
  expect(contentPageSlug('/sobre')).toBe('sobre');
  expect(contentPageSlug('/FAQ/')).toBe('faq');
  expect(contentPageSlug('/politicaprivacidade')).toBe('politicaprivacidade');
  expect(contentPageSlug('/')).toBeNull();
  expect(contentPageSlug('/sobre/mais')).toBeNull();
  expect(contentPageSlug('/products')).toBeNull();
});
