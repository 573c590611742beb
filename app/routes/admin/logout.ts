import { redirect } from 'react-router';

import { refuseOtherMethods } from '~/lib/form.server';
import { endSession } from '~/modules/auth/index.server';

import type { Route } from './+types/logout';

/** 'Sair': the session ends on the server, not only in this browser. */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const cookie = await endSession(context.db, request);
  return redirect('/admin/login', { status: 303, headers: { 'Set-Cookie': cookie } });
}

export function loader() {
  return redirect('/admin');
}
