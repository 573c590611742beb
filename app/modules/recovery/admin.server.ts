import { z } from 'zod';

/** 'Copiar link' / 'WhatsApp' on a row of /admin/abandoned: a fresh restore link for it. */
export const abandonedActionSchema = z.object({
  intent: z.literal('link', { error: 'Ação desconhecida.' }),
  checkoutId: z.string({ error: 'Carrinho não encontrado.' }).max(64),
});
