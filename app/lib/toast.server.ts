import { randomUUID } from 'node:crypto';

import { createCookie, data, redirect } from 'react-router';

import { isAdminPath } from './admin-path';
import { TOAST_KINDS, type Toast } from './toast';

/**
 * A toast that must outlive a redirect (create a product, then land on the list) rides in a
 * short-lived cookie; the admin layout's loader reads it once and clears it.
 */
const toastCookie = createCookie('vitrine_toast', {
  path: '/admin',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60,
});

export function toast(kind: Toast['kind'], message: string): Toast {
  return { id: randomUUID(), kind, message };
}

async function toastHeader(value: Toast): Promise<string> {
  return toastCookie.serialize(value);
}

export async function redirectWithToast(url: string, value: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append('Set-Cookie', await toastHeader(value));
  return redirect(url, { status: 303, ...init, headers });
}

/**
 * A successful action's answer with its toast (a string is a success; a Toast says its own
 * kind, such as a warning shown as loudly as an error) and whatever else the form needs back
 * (`extra`: the saved thing's id, say). In the admin the toast also rides the cookie, which the
 * layout reads in the reload that follows a script's submission, so it shows even when the form
 * that sent it is no longer on the page (a deleted row); the Toaster shows each toast once. A
 * plain form post (before JavaScript) shows the answer in the page, so it gets no cookie, and
 * neither does the storefront, whose forms show their own answers (the cookie is read under
 * /admin only).
 */
export async function successWithToast<Extra extends object = object>(
  request: Request,
  message: string | Toast,
  extra?: Extra,
  headers?: HeadersInit,
) {
  const value = typeof message === 'string' ? toast('success', message) : message;
  const body = { ...(extra as Extra), ok: true as const, toast: value };
  if (
    !isAdminPath(new URL(request.url).pathname) ||
    request.headers.get('Sec-Fetch-Mode') === 'navigate'
  ) {
    return data(body, headers ? { headers } : undefined);
  }
  const withToast = new Headers(headers);
  withToast.append('Set-Cookie', await toastHeader(value));
  return data(body, { headers: withToast });
}

/** The toast waiting for this request, and the header that consumes it. */
export async function readToast(
  request: Request,
): Promise<{ toast: Toast | null; headers?: HeadersInit }> {
  let value: unknown;
  try {
    value = await toastCookie.parse(request.headers.get('Cookie'));
  } catch {
    value = null;
  }
  if (!value || typeof value !== 'object') return { toast: null };
  const { id, kind, message } = value as Record<string, unknown>;
  const clear = { 'Set-Cookie': await toastCookie.serialize('', { maxAge: 0 }) };
  if (
    typeof id !== 'string' ||
    typeof message !== 'string' ||
    !TOAST_KINDS.includes(kind as Toast['kind'])
  ) {
    return { toast: null, headers: clear };
  }
  return {
    toast: { id, kind: kind as Toast['kind'], message: message.slice(0, 300) },
    headers: clear,
  };
}

/**
 * A refused form's answer, the other half of the one reply of every form action: the error
 * toast, each field's message and the values to show again, plus
 * whatever else the form needs back (the first problem as `error`, the `intent`). A 400 unless told otherwise.
 */
export function refuseForm<Extra extends object = object>(
  message: string,
  failure: {
    error?: string;
    fieldErrors?: Record<string, string>;
    values?: Record<string, string>;
  } & Extra = {} as Extra,
  status = 400,
  headers?: HeadersInit,
) {
  const { fieldErrors = {}, values = {}, ...rest } = failure;
  return data(
    { ...rest, ok: false as const, toast: toast('error', message), fieldErrors, values },
    { status, headers },
  );
}
