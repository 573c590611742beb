import { randomBytes } from 'node:crypto';

import { createCookie } from 'react-router';

// The browser's key to its own orders: history and order pages show only orders placed with it.
const orderTokenCookie = createCookie('order_token', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  maxAge: 60 * 60 * 24 * 365 * 2,
});

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The request's order token, or null when absent or not one we could have made. */
export async function readOrderToken(request: Request): Promise<string | null> {
  const value: unknown = await orderTokenCookie.parse(request.headers.get('Cookie'));
  return typeof value === 'string' && TOKEN.test(value) ? value : null;
}

/** 256 random bits: guessing another browser's token is out of reach. */
export function newOrderToken(): string {
  return randomBytes(32).toString('base64url');
}

export function orderTokenCookieHeader(token: string): Promise<string> {
  return orderTokenCookie.serialize(token);
}
