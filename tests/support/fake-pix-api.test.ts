import type OpenAPIBackend from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';

import { specValidator } from './fake-pix-api';

// The simulator's validator is what keeps our client and the simulator on the spec: it must
// refuse what the spec forbids, including what the published file's defects let through.
let api: OpenAPIBackend;

beforeAll(async () => {
  api = specValidator();
  await api.init();
});

const TXID = 'a'.repeat(32) + 'b1c';
const charge = (cpf: string, txid = TXID) => {
  const request = {
    method: 'put',
    path: `/v2/cob/${txid}`,
    headers: { 'content-type': 'application/json' },
    body: {
      calendario: { expiracao: 3600 },
      devedor: { cpf, nome: 'Maria da Silva' },
      valor: { original: '299.90' },
      chave: 'financeiro@loja.test',
    },
  };
  return api.validateRequest(request, api.matchOperation(request)!);
};

describe('the API Pix spec as the simulator validates it', () => {
  it('takes an 11-digit CPF (the published pattern matched none) and refuses any other', () => {
    expect(charge('12345678909').valid).toBe(true);
    expect(charge('123.456.789-09').valid).toBe(false);
  });

  it('refuses a txid outside 26–35 letters and digits (the published pattern was unanchored)', () => {
    expect(charge('12345678909', 'a'.repeat(25)).valid).toBe(false);
    expect(charge('12345678909', 'a'.repeat(36)).valid).toBe(false);
    expect(charge('12345678909', `${'a'.repeat(30)}-b`).valid).toBe(false);
  });

  it('checks dates as RFC 3339', () => {
    const pix = { endToEndId: `E${'1'.repeat(31)}`, valor: '1.00' };
    const answer = (horario: string) =>
      api.validateResponse({ ...pix, horario }, 'get /pix/{e2eid}', 200).valid;
    expect(answer('2026-12-01T10:00:00.000Z')).toBe(true);
    expect(answer('01/12/2026 10:00')).toBe(false);
  });

  it('requires `pix` in a GET /pix answer, not `cobs`, and no `idCob` in a GET /cob one', () => {
    const parametros = {
      inicio: '2026-12-01T00:00:00Z',
      fim: '2026-12-02T00:00:00Z',
      paginacao: {
        paginaAtual: 0,
        itensPorPagina: 100,
        quantidadeDePaginas: 1,
        quantidadeTotalDeItens: 0,
      },
    };
    expect(api.validateResponse({ parametros, pix: [] }, 'get /pix', 200).valid).toBe(true);
    expect(api.validateResponse({ parametros }, 'get /pix', 200).valid).toBe(false);
    expect(api.validateResponse({ parametros, cobs: [] }, 'get /cob', 200).valid).toBe(true);
  });
});
