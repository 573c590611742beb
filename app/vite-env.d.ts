// What vite.config.ts's `define` writes into the code.
interface ImportMetaEnv {
  /** A hash of public/ (app/lib/public-files.ts); undefined where Vite did not build the code. */
  readonly VITRINE_PUBLIC_VERSION?: string;
}
