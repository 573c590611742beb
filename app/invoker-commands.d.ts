// Invoker commands (a button that opens or closes a <dialog> without JavaScript) are in the
// HTML standard and in Chromium, Firefox and Safari, but not yet in React's types.
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- must match React's declaration
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: 'show-modal' | 'close' | 'request-close';
  }
}
