import { z } from 'zod';

/** What the dashboard posts: 'Começar loja real', the one way from demo to live (ADR 018). */
export const goLiveFormSchema = z.object({
  intent: z.enum(['go-live'], { error: 'Ação inválida.' }),
});
