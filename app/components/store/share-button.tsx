import { useState } from 'react';

type Outcome = { copied: true } | { copied: false; url: string } | null;

/**
 * Shares the page with the system share sheet where there is one (phones), otherwise copies the
 * link. When even the clipboard is refused, the link is shown for the shopper to copy by hand.
 */
export function ShareButton({ path, title }: { path: string; title: string }) {
  const [outcome, setOutcome] = useState<Outcome>(null);

  const share = async () => {
    setOutcome(null);
    // The address the shopper sees (behind proxies the server may not know it).
    const url = new URL(path, window.location.href).href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setOutcome({ copied: true });
    } catch {
      setOutcome({ copied: false, url });
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <button type="button" className="btn btn-outline" onClick={share}>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          className="text-icon"
        >
          <circle cx="18" cy="5" r="3" />
          <circle cx="6" cy="12" r="3" />
          <circle cx="18" cy="19" r="3" />
          <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
        </svg>
        Compartilhar
      </button>
      <p role="status" className="text-sm">
        {outcome?.copied ? 'Link copiado!' : null}
      </p>
      {outcome && !outcome.copied ? (
        <label className="flex flex-col gap-1 text-sm">
          Não foi possível copiar. Copie o link:
          <input
            type="text"
            readOnly
            value={outcome.url}
            className="field"
            onFocus={(event) => event.target.select()}
          />
        </label>
      ) : null}
    </div>
  );
}
