import { randomUUID } from 'node:crypto';

import { createCookie, redirect } from 'react-router';

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

export async function toastHeader(value: Toast): Promise<string> {
  return toastCookie.serialize(value);
}

export async function redirectWithToast(url: string, value: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append('Set-Cookie', await toastHeader(value));
  return redirect(url, { status: 303, ...init, headers });
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
