import { describe, expect, it } from 'vitest';

import { ORDER_STATUSES } from './schema';
import {
  ADMIN_STATUS_LABELS,
  adminStatusWord,
  SHOPPER_STATUS_LABELS,
  TRANSITION_LABELS,
} from './status-labels';
import { transitionRefusal } from './transitions';

describe('the status vocabularies', () => {
  it('say what SPEC §4 gives each audience for a confirmed order', () => {
    expect(SHOPPER_STATUS_LABELS.confirmed).toBe('Pago');
    expect(ADMIN_STATUS_LABELS.confirmed).toBe('Confirmado');
    expect(TRANSITION_LABELS.confirmed).toBe('Aprovado');
  });

  it('agree on every other status', () => {
    for (const status of ORDER_STATUSES.filter((status) => status !== 'confirmed')) {
      expect(SHOPPER_STATUS_LABELS[status], status).toBe(ADMIN_STATUS_LABELS[status]);
      expect(TRANSITION_LABELS[status], status).toBe(ADMIN_STATUS_LABELS[status]);
    }
    expect(ADMIN_STATUS_LABELS).toMatchObject({
      pending: 'Pendente',
      shipped: 'Enviado',
      delivered: 'Entregue',
      cancelled: 'Cancelado',
    });
  });

  it('go in sentence case inside a sentence', () => {
    expect(ORDER_STATUSES.map(adminStatusWord)).toEqual([
      'pendente',
      'confirmado',
      'enviado',
      'entregue',
      'cancelado',
    ]);
    expect(`Este pedido está ${adminStatusWord('delivered')}`).toBe('Este pedido está entregue');
    expect(transitionRefusal('delivered', 'pending')).toBe(
      'Não é possível mudar de entregue para pendente.',
    );
  });
});
