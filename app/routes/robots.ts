import { robotsTxt } from '~/modules/content/index.server';

import type { Route } from './+types/robots';

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  // A demo asks crawlers to stay out altogether, as 'noindex' in meta_robots does (ADR 018).
  const demo = (await context.settings.mode()) === 'demo';
  return new Response(robotsTxt(context.origin, demo ? 'noindex' : settings.meta_robots), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
