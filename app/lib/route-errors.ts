import { data } from 'react-router';

/**
 * A thrown answer's status text travels in the page's data, and React Router fills a missing
 * one with 'Internal Server Error' whatever the status: every thrown answer names its own, in
 * pt-BR.
 */
const STATUS_TEXTS = {
  404: 'Não encontrado',
  503: 'Indisponível no momento',
} as const;

/** The answer a loader throws to show the error page with this status. */
export function routeError<T>(
  status: keyof typeof STATUS_TEXTS,
  body: T = null as T,
  headers?: HeadersInit,
) {
  return data(body, { status, statusText: STATUS_TEXTS[status], headers });
}
