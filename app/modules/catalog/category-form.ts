import { z } from 'zod';

import { FORM_MESSAGES, singleLine, textError, uuidField } from '~/lib/form';
import { countOf } from '~/lib/plural';

/** The admin's category forms, shared by the browser and the server. */
export const CATEGORY_MESSAGES = {
  name: 'Informe o nome da categoria.',
  nameTooLong: 'Use no máximo 80 caracteres no nome.',
  descriptionTooLong: 'Use no máximo 500 caracteres na descrição.',
  nameTaken: 'Já existe uma categoria com este nome.',
  notFound: 'Categoria não encontrada. Ela pode ter sido excluída por outra pessoa.',
  formReused: 'Este formulário já foi usado. Recarregue a página e tente novamente.',
  formExpired: 'Formulário expirado. Recarregue a página e tente novamente.',
  productsChoice: 'Escolha se os produtos vão para outra categoria ou ficam sem categoria.',
  moveTarget: 'Escolha a categoria que vai receber os produtos.',
  moveTargetMissing: 'A categoria escolhida para receber os produtos não existe mais.',
  moveTargetSame: 'Escolha uma categoria diferente da que será excluída.',
  invalid: 'Envie os dados pelo formulário de categorias.',
} as const;

export const CATEGORY_NAME_MAX = 80;
export const CATEGORY_DESCRIPTION_MAX = 500;

/** 'Esta categoria tem 3 produtos.' */
export function productCountSentence(count: number): string {
  return `Esta categoria tem ${countOf(count, 'produto', 'produtos')}.`;
}

// The checks below use only what the checkout's schema uses too: the browser's copy of zod is
// shared with the storefront, and must not grow for the admin.
const categoryId = uuidField(CATEGORY_MESSAGES.notFound);

/**
 * Add (`create`) or edit (`update`): name required, description optional (SPEC §5). On create,
 * `id` is a fresh key made with the page: the same form sent twice makes one category.
 */
export const categoryFormSchema = z.object({
  intent: z.enum(['create', 'update'], { error: CATEGORY_MESSAGES.invalid }),
  id: uuidField(CATEGORY_MESSAGES.formExpired),
  name: z
    .string({ error: textError(CATEGORY_MESSAGES.name) })
    .overwrite(singleLine)
    .min(1, { error: CATEGORY_MESSAGES.name, abort: true })
    .max(CATEGORY_NAME_MAX, { error: CATEGORY_MESSAGES.nameTooLong }),
  description: z
    .string({ error: FORM_MESSAGES.invalid })
    .trim()
    .max(CATEGORY_DESCRIPTION_MAX, { error: CATEGORY_MESSAGES.descriptionTooLong })
    .optional()
    .transform((value) => value || null),
});

/** The 'Selecionada' switch: the value sent is the state wanted. */
export const categoryFeaturedSchema = z.object({
  intent: z.enum(['feature']),
  id: categoryId,
  featured: z
    .enum(['true', 'false'], { error: FORM_MESSAGES.invalid })
    .transform((value) => value === 'true'),
});

/**
 * Delete. A category that still has products needs a choice for them: `move` to `targetId`, or
 * `detach` (they stay, without a category). Without one the server refuses.
 */
export const categoryDeleteSchema = z
  .object({
    intent: z.enum(['delete']),
    id: categoryId,
    products: z.enum(['move', 'detach'], { error: CATEGORY_MESSAGES.productsChoice }).optional(),
    targetId: z.string({ error: FORM_MESSAGES.invalid }).optional(),
  })
  .refine((form) => form.products !== 'move' || Boolean(form.targetId), {
    error: CATEGORY_MESSAGES.moveTarget,
    path: ['targetId'],
  })
  .refine(
    (form) =>
      form.products !== 'move' || !form.targetId || z.uuid().safeParse(form.targetId).success,
    { error: CATEGORY_MESSAGES.moveTargetMissing, path: ['targetId'] },
  );
