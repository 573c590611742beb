import { getStates } from '@brazilian-utils/brazilian-utils/get-states';
import { describe, expect, it } from 'vitest';

import { BRAZIL_STATES } from './states';

describe('BRAZIL_STATES', () => {
  it("is brazilian-utils' list of federative units, codes and names in its order", () => {
    expect(BRAZIL_STATES).toEqual(getStates().map(({ code, name }) => ({ code, name })));
  });
});
