import { randomUUID } from 'node:crypto';

import { createCookie, data, redirect, redirectDocument } from 'react-router';

import { isAdminPath } from './admin-path';
import { TOAST_KINDS, type Toast } from './toast';

/**
 * A toast that must outlive a redirect (create a product, then land on the list) rides in a
 * short-lived cookie; the admin layout's loader reads it once and clears it. Each toast has a
 * cookie of its own: with one shared name, the clearing answer of a reload still on its way
 * would erase the toast of an action sent just after it (two quick clicks lost the second).
 */
const TOAST_COOKIE_PREFIX = 'vitrine_toast_';
const TOAST_COOKIE_NAME = /(?:^|;\s*)(vitrine_toast_[0-9a-f-]{36})=/g;

function toastCookie(id: string) {
  return createCookie(`${TOAST_COOKIE_PREFIX}${id}`, {
    path: '/admin',
    sameSite: 'lax',
    httpOnly: true,
    maxAge: 60,
  });
}

export function toast(kind: Toast['kind'], message: string): Toast {
  return { id: randomUUID(), kind, message };
}

async function toastHeader(value: Toast): Promise<string> {
  return toastCookie(value.id).serialize(value);
}

export async function redirectWithToast(url: string, value: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append('Set-Cookie', await toastHeader(value));
  return redirect(url, { status: 303, ...init, headers });
}

/**
 * As redirectWithToast, but the browser loads the page whole, also after a script's submission:
 * for a page that starts a new session (its layout reads it afresh), and for `/admin` itself,
 * whose data URL `/admin.data` lies outside the toast cookie's path.
 */
export async function redirectDocumentWithToast(url: string, value: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append('Set-Cookie', await toastHeader(value));
  return redirectDocument(url, { status: 303, ...init, headers });
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

/** The toasts waiting for this request, oldest first, and the headers that consume them. */
export async function readToasts(request: Request): Promise<{ toasts: Toast[]; headers: Headers }> {
  const cookieHeader = request.headers.get('Cookie') ?? '';
  const toasts: Toast[] = [];
  const headers = new Headers();
  for (const match of cookieHeader.matchAll(TOAST_COOKIE_NAME)) {
    const cookie = toastCookie(match[1]!.slice(TOAST_COOKIE_PREFIX.length));
    headers.append('Set-Cookie', await cookie.serialize('', { maxAge: 0 }));
    const value = await cookie.parse(cookieHeader).catch(() => null);
    const valid = parseToast(value);
    if (valid) toasts.push(valid);
  }
  return { toasts: toasts.slice(-3), headers };
}

function parseToast(value: unknown): Toast | null {
  if (!value || typeof value !== 'object') return null;
  const { id, kind, message } = value as Record<string, unknown>;
  if (
    typeof id !== 'string' ||
    typeof message !== 'string' ||
    !TOAST_KINDS.includes(kind as Toast['kind'])
  ) {
    return null;
  }
  return { id, kind: kind as Toast['kind'], message: message.slice(0, 300) };
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
