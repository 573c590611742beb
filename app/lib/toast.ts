export const TOAST_KINDS = ['success', 'error'] as const;

/** One message of feedback after an action: what happened, in pt-BR. */
export interface Toast {
  /** New for every toast, so the same message twice shows twice. */
  id: string;
  kind: (typeof TOAST_KINDS)[number];
  message: string;
}
