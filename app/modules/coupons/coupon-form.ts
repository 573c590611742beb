import { z } from 'zod';

import { FORM_MESSAGES, textError, uuidField } from '~/lib/form';
import { formatCents } from '~/lib/money';
import { parseReais } from '~/lib/reais';

import { COUPON_KINDS, type CouponKind } from './schema';

/** The admin's coupon forms, shared by the browser and the server. */
export const COUPON_FORM_MESSAGES = {
  code: 'Informe o código do cupom.',
  codeFormat: 'Use de 3 a 30 letras e números, sem espaços nem acentos.',
  codeTaken: 'Já existe um cupom com este código.',
  kind: 'Escolha o tipo do cupom.',
  percent: 'Informe uma porcentagem inteira de 1 a 100.',
  amount: 'Informe o valor do desconto, como 20,00.',
  amountInvalid: 'Valor inválido. Use o formato 1.234,56.',
  amountZero: 'O valor do desconto deve ser maior que zero.',
  amountTooHigh: 'Valor alto demais.',
  amountDecimals: 'Use no máximo duas casas decimais (centavos).',
  minimumInvalid: 'Valor mínimo inválido. Use o formato 1.234,56.',
  date: 'Data inválida. Use dia, mês, ano e hora.',
  window: 'O fim da validade deve ser depois do início.',
  limit: 'Use um número inteiro de 1 a 1.000.000, ou deixe em branco para não limitar.',
  limitBelowUses: 'O limite de usos não pode ser menor que os usos que o cupom já teve.',
  tooManyChoices: 'Escolha no máximo 200 itens.',
  choiceGone: 'Um dos itens escolhidos não existe mais. Recarregue a página.',
  notFound: 'Cupom não encontrado. Ele pode ter sido excluído.',
  formReused: 'Este formulário já foi usado. Recarregue a página e tente novamente.',
  formExpired: 'Formulário expirado. Recarregue a página e tente novamente.',
  used: 'Este cupom já foi usado em pedidos: ele não pode ser excluído, só desativado.',
  invalid: 'Envie os dados pelo formulário de cupons.',
} as const;

export const COUPON_CODE_MAX = 30;
const COUPON_LIMIT_MAX = 1_000_000;
const COUPON_CHOICES_MAX = 200;

export const COUPON_KIND_LABELS: Record<CouponKind, string> = {
  percent: 'Porcentagem',
  fixed: 'Valor fixo',
  free_shipping: 'Frete grátis',
};

/** '10%', 'R$ 20,00' or 'Frete grátis': what the coupon takes off. */
export function couponValueText(kind: CouponKind, value: number): string {
  if (kind === 'percent') return `${value}%`;
  if (kind === 'fixed') return formatCents(value);
  return COUPON_KIND_LABELS.free_shipping;
}

export type CouponState = 'active' | 'inactive' | 'expired' | 'scheduled' | 'used_up';

export const COUPON_STATE_LABELS: Record<CouponState, string> = {
  active: 'Ativo',
  inactive: 'Inativo',
  expired: 'Expirado',
  scheduled: 'Agendado',
  used_up: 'Esgotado',
};

/**
 * What a shopper would meet now: switched off first (staff chose it), then past its end, then
 * out of uses, then not yet started.
 */
export function couponState(
  coupon: {
    active: boolean;
    startsAt: Date | null;
    endsAt: Date | null;
    usageLimit: number | null;
    usedCount: number;
  },
  now: Date,
): CouponState {
  if (!coupon.active) return 'inactive';
  if (coupon.endsAt && coupon.endsAt <= now) return 'expired';
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) return 'used_up';
  if (coupon.startsAt && coupon.startsAt > now) return 'scheduled';
  return 'active';
}

/** A code as shoppers may type it, as it is kept: capitals, no spaces around. */
function normalizeCouponCode(text: string): string {
  return text.trim().toUpperCase();
}

const CODE = /^[A-Z0-9]{3,30}$/;

// A datetime-local field's value, read on the store's clock (seconds, when a browser sends them,
// are dropped: validity is set to the minute).
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** 'YYYY-MM-DDTHH:mm' when the text is a real moment of years 2000–2100, else null. */
function parseWallClock(text: string): string | null {
  const match = WALL_CLOCK.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!));
  const real =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo! - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    y! >= 2000 &&
    y! <= 2100;
  return real ? text.slice(0, 16) : null;
}

const blankToNull = (value: string | undefined) => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

const optionalText = z.string({ error: FORM_MESSAGES.invalid }).optional().transform(blankToNull);

const wallClockField = optionalText.transform((value, context) => {
  if (value === null) return null;
  const parsed = parseWallClock(value);
  if (parsed === null) {
    context.addIssue({ code: 'custom', message: COUPON_FORM_MESSAGES.date });
    return z.NEVER;
  }
  return parsed;
});

const limitField = optionalText.transform((value, context) => {
  if (value === null) return null;
  const units = /^\d{1,3}(\.\d{3})+$|^\d+$/.test(value) ? Number(value.replace(/\./g, '')) : NaN;
  if (!Number.isInteger(units) || units < 1 || units > COUPON_LIMIT_MAX) {
    context.addIssue({ code: 'custom', message: COUPON_FORM_MESSAGES.limit });
    return z.NEVER;
  }
  return units;
});

const minimumField = optionalText.transform((value, context) => {
  if (value === null) return 0;
  const result = parseReais(value, { exactCents: true });
  if ('error' in result) {
    context.addIssue({
      code: 'custom',
      message:
        result.error === 'too-many-decimals'
          ? COUPON_FORM_MESSAGES.amountDecimals
          : result.error === 'too-high'
            ? COUPON_FORM_MESSAGES.amountTooHigh
            : COUPON_FORM_MESSAGES.minimumInvalid,
    });
    return z.NEVER;
  }
  return result.cents;
});

const idList = z
  .array(z.string({ error: FORM_MESSAGES.invalid }), { error: FORM_MESSAGES.invalid })
  .default([])
  .transform((ids) => [...new Set(ids.filter((id) => id !== '').map((id) => id.toLowerCase()))])
  .pipe(
    z
      .array(uuidField(COUPON_FORM_MESSAGES.choiceGone))
      .max(COUPON_CHOICES_MAX, { error: COUPON_FORM_MESSAGES.tooManyChoices }),
  );

const checkbox = z
  .string({ error: FORM_MESSAGES.invalid })
  .optional()
  .transform((value) => value !== undefined);

/** The discount's value as kept: whole percent, cents, or 0 for free shipping. */
function valueOf(kind: CouponKind, text: string | null): { value: number } | { error: string } {
  if (kind === 'free_shipping') return { value: 0 };
  if (kind === 'percent') {
    const percent = text && /^\d{1,3}%?$/.test(text) ? Number(text.replace('%', '')) : NaN;
    return percent >= 1 && percent <= 100
      ? { value: percent }
      : { error: COUPON_FORM_MESSAGES.percent };
  }
  if (text === null) return { error: COUPON_FORM_MESSAGES.amount };
  const result = parseReais(text, { exactCents: true });
  if ('error' in result) {
    return {
      error:
        result.error === 'too-many-decimals'
          ? COUPON_FORM_MESSAGES.amountDecimals
          : result.error === 'too-high'
            ? COUPON_FORM_MESSAGES.amountTooHigh
            : COUPON_FORM_MESSAGES.amountInvalid,
    };
  }
  return result.cents === 0 ? { error: COUPON_FORM_MESSAGES.amountZero } : { value: result.cents };
}

/** The multi-selects of the coupon form: each chosen item is sent as its own field. */
export const COUPON_FORM_REPEATABLE = ['productIds', 'categoryIds'] as const;

/**
 * Add (`create`) or edit (`update`) a coupon. On create, `id` is a fresh key made with the page:
 * the same form sent twice makes one coupon. Start and end are the store's wall clock
 * ('YYYY-MM-DDTHH:mm'); the server reads them in the store's time zone.
 */
export const couponFormSchema = z
  .object({
    intent: z.enum(['create', 'update'], { error: COUPON_FORM_MESSAGES.invalid }),
    id: uuidField(COUPON_FORM_MESSAGES.formExpired),
    code: z
      .string({ error: textError(COUPON_FORM_MESSAGES.code) })
      .transform(normalizeCouponCode)
      .pipe(
        z
          .string()
          .min(1, { error: COUPON_FORM_MESSAGES.code, abort: true })
          .regex(CODE, { error: COUPON_FORM_MESSAGES.codeFormat }),
      ),
    kind: z.enum(COUPON_KINDS, { error: COUPON_FORM_MESSAGES.kind }),
    value: optionalText,
    minSubtotal: minimumField,
    startsAt: wallClockField,
    endsAt: wallClockField,
    usageLimit: limitField,
    usageLimitPerCustomer: limitField,
    firstPurchaseOnly: checkbox,
    productIds: idList,
    categoryIds: idList,
    active: checkbox,
  })
  .transform(({ value: valueText, minSubtotal, ...form }, context) => {
    const value = valueOf(form.kind, valueText);
    if ('error' in value) {
      context.addIssue({ code: 'custom', message: value.error, path: ['value'] });
      return z.NEVER;
    }
    // Two wall-clock texts of one zone compare as their moments do.
    if (form.startsAt && form.endsAt && form.startsAt >= form.endsAt) {
      context.addIssue({ code: 'custom', message: COUPON_FORM_MESSAGES.window, path: ['endsAt'] });
      return z.NEVER;
    }
    return { ...form, value: value.value, minSubtotalCents: minSubtotal };
  });

export type CouponForm = z.output<typeof couponFormSchema>;

const couponId = uuidField(COUPON_FORM_MESSAGES.notFound);

/** 'Ativar' / 'Desativar' and 'Excluir' of one coupon. */
export const couponRowSchema = z.object({
  intent: z.enum(['activate', 'deactivate', 'delete'], { error: COUPON_FORM_MESSAGES.invalid }),
  id: couponId,
});
