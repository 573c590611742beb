import { describe, expect, it } from 'vitest';

import { reviewerName } from './display';

describe('reviewerName', () => {
  it('shows the name given, or "Cliente" when it is blank', () => {
    expect(reviewerName('Ana Souza')).toBe('Ana Souza');
    expect(reviewerName('')).toBe('Cliente');
    expect(reviewerName('   ')).toBe('Cliente');
  });
});
