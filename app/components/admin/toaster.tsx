import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';

import { CloseIcon } from '~/components/ui/icons';
import type { Toast } from '~/lib/toast';

import { useEachAnswer } from '~/lib/use-each-answer';

const SHOW_MS = 6_000;

const ToastContext = createContext<(toast: Toast) => void>(() => {});

/**
 * The admin's one toast: a polite live region in a corner that never moves the page. Toasts
 * come from the layout's loader (after a redirect) and from actions' answers (useToastFrom).
 */
export function Toaster({ initial, children }: { initial: Toast[]; children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>(initial);
  const seen = useRef(new Set(initial.map((toast) => toast.id)));

  const show = useCallback((toast: Toast) => {
    if (seen.current.has(toast.id)) return;
    seen.current.add(toast.id);
    setToasts((current) => [...current.slice(-2), toast]);
  }, []);
  const dismiss = useCallback(
    (id: string) => setToasts((current) => current.filter((t) => t.id !== id)),
    [],
  );

  useEffect(() => {
    for (const toast of initial) show(toast);
  }, [initial, show]);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div
        role="status"
        aria-live="polite"
        className="pointer-events-none fixed inset-x-2 bottom-2 z-50 flex flex-col items-end gap-2 sm:right-4 sm:bottom-4 sm:left-auto"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const { id } = toast;
  // Keyed on the toast alone: the Toaster re-renders as other toasts come and go, and that must
  // not restart this one's clock.
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(id), SHOW_MS);
    return () => clearTimeout(timer);
  }, [id, onDismiss]);
  const error = toast.kind === 'error';
  return (
    <div
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${
        error
          ? 'border-red-300 bg-red-50 text-red-900'
          : 'border-green-300 bg-green-50 text-green-900'
      }`}
    >
      <p className="flex-1">{toast.message}</p>
      <button
        type="button"
        onClick={() => onDismiss(id)}
        className="-m-1 rounded p-1 hover:bg-black/5"
        aria-label="Fechar aviso"
      >
        <CloseIcon className="h-4 w-4" />
      </button>
    </div>
  );
}

/** Shows the toast an action answered with (actionData or a fetcher's data), once. */
export function useToastFrom(result: unknown) {
  const show = useContext(ToastContext);
  useEachAnswer(result, (answer) => {
    const toast = (answer as { toast?: Toast } | null)?.toast;
    if (toast) show(toast);
  });
}

/**
 * Without JavaScript there is no toast: the answer to a form posted without a fetcher shows in
 * the page instead, where this sits.
 */
export function ToastFallback({ toast }: { toast: Toast | undefined }) {
  if (!toast) return null;
  return (
    <p
      role={toast.kind === 'error' ? 'alert' : 'status'}
      className={`rounded-md px-3 py-2 text-sm ${
        toast.kind === 'error' ? 'bg-red-50 text-red-800' : 'bg-green-50 text-green-800'
      }`}
    >
      {toast.message}
    </p>
  );
}
