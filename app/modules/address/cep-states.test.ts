import { describe, expect, it } from 'vitest';

import { BRAZIL_STATES } from '~/modules/checkout';

import { CEP_STATE_RANGES, stateFromCep } from './cep-states';

describe('stateFromCep', () => {
  it.each([
    ['01310100', 'SP'], // Avenida Paulista, São Paulo
    ['13083970', 'SP'], // Campinas
    ['20040020', 'RJ'], // Centro, Rio de Janeiro
    ['29010120', 'ES'], // Vitória
    ['30130010', 'MG'], // Belo Horizonte
    ['40020000', 'BA'], // Salvador
    ['49010000', 'SE'], // Aracaju
    ['50030230', 'PE'], // Recife
    ['57020050', 'AL'], // Maceió
    ['58013420', 'PB'], // João Pessoa
    ['59025000', 'RN'], // Natal
    ['60060170', 'CE'], // Fortaleza
    ['64000040', 'PI'], // Teresina
    ['65010000', 'MA'], // São Luís
    ['66010000', 'PA'], // Belém
    ['68900073', 'AP'], // Macapá
    ['69005040', 'AM'], // Manaus
    ['69301000', 'RR'], // Boa Vista
    ['69400000', 'AM'], // Manacapuru, after Roraima's range
    ['69900062', 'AC'], // Rio Branco
    ['70040010', 'DF'], // Brasília
    ['72800000', 'GO'], // Luziânia, inside the DF's numbers
    ['73000000', 'DF'], // Sobradinho
    ['74003010', 'GO'], // Goiânia
    ['76801000', 'RO'], // Porto Velho
    ['77001002', 'TO'], // Palmas
    ['78005000', 'MT'], // Cuiabá
    ['79002000', 'MS'], // Campo Grande
    ['80010000', 'PR'], // Curitiba
    ['88010000', 'SC'], // Florianópolis
    ['90010150', 'RS'], // Porto Alegre
    ['99999999', 'RS'],
  ])('finds the state of %s: %s', (cep, state) => {
    expect(stateFromCep(cep)).toBe(state);
  });

  it('knows the first and last CEP of every range', () => {
    for (const [from, to, state] of CEP_STATE_RANGES) {
      expect(stateFromCep(`${String(from).padStart(5, '0')}000`)).toBe(state);
      expect(stateFromCep(`${String(to).padStart(5, '0')}999`)).toBe(state);
    }
  });

  it('covers every state, with no gap or overlap from 01000 to 99999', () => {
    const sorted = [...CEP_STATE_RANGES].sort(([a], [b]) => a - b);
    expect(sorted[0]![0]).toBe(1000);
    expect(sorted.at(-1)![1]).toBe(99999);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]![0]).toBe(sorted[i - 1]![1] + 1);
    expect(new Set(CEP_STATE_RANGES.map(([, , state]) => state))).toEqual(
      new Set(BRAZIL_STATES.map((state) => state.code)),
    );
  });

  it.each(['00999999', '00000000', '0131010', '013101000', '01310-100', 'abcdefgh', ''])(
    'answers null for %j',
    (cep) => {
      expect(stateFromCep(cep)).toBeNull();
    },
  );
});
