import { robotsTxt } from '~/modules/content/index.server';
import { canTakePayments } from '~/modules/payments/index.server';

import type { Route } from './+types/robots';

export async function loader({ context }: Route.LoaderArgs) {
  const [settings, mode, payments] = await Promise.all([
    context.settings.get(),
    context.settings.mode(),
    context.payments(),
  ]);
  // A demo, or a store that cannot take a payment yet, asks crawlers to stay out altogether, as
  // 'noindex' in meta_robots does (ADR 018).
  const unlisted = mode === 'demo' || !canTakePayments(payments, settings);
  return new Response(robotsTxt(context.origin, unlisted ? 'noindex' : settings.meta_robots), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
