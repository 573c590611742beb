import { robotsTxt } from '~/modules/content/index.server';

import type { Route } from './+types/robots';

export async function loader({ context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  return new Response(robotsTxt(context.origin, settings.meta_robots), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
