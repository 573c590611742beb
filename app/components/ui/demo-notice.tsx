/**
 * Across the top of every page of a demo store, the storefront's and the admin's alike, in
 * colours of its own so no theme can hide it (ADR 018). The words come from the settings module
 * (DEMO_NOTICE): a primitive knows no domain (ADR 021).
 */
export function DemoNotice({ text }: { text: string }) {
  return (
    <aside aria-label="Aviso" className="bg-amber-300 px-4 py-2 text-center text-sm text-black">
      <p className="font-semibold" data-testid="demo-notice">
        {text}
      </p>
    </aside>
  );
}
