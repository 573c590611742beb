import { describe, expect, it } from 'vitest';

import { ADMIN_ORDER_MESSAGES, ADMIN_STATUS_LABELS } from '~/modules/orders/index.admin';
import { ORDER_STATUSES } from '~/modules/orders';

import { LABEL_MESSAGES } from './shipping-labels.server';

// A status label (capitalised, as badges and filters show it) after the first word of a text.
const TITLE_CASE_STATUS = new RegExp(
  `\\S\\s+\\(?(${Object.values(ADMIN_STATUS_LABELS).join('|')})\\b`,
);

describe("the staff's sentences about an order's status", () => {
  it('name the status in sentence case mid-sentence', () => {
    const sentences = [
      ...ORDER_STATUSES.flatMap((status) => [
        ADMIN_ORDER_MESSAGES.statusUpdated(status),
        ADMIN_ORDER_MESSAGES.alreadyThere(status),
      ]),
      ...Object.values(ADMIN_ORDER_MESSAGES).filter((message) => typeof message === 'string'),
      ...Object.values(LABEL_MESSAGES).filter((message) => typeof message === 'string'),
      LABEL_MESSAGES.notPaid('pendente'),
      LABEL_MESSAGES.done('ME123456789BR'),
    ];
    expect(sentences.filter((sentence) => TITLE_CASE_STATUS.test(sentence))).toEqual([]);
    expect(ADMIN_ORDER_MESSAGES.statusUpdated('delivered')).toBe(
      'Status atualizado para entregue.',
    );
    expect(ADMIN_ORDER_MESSAGES.alreadyThere('shipped')).toBe('O pedido já está enviado.');
  });
});
