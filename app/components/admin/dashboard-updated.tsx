import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';

const MINUTE_MS = 60_000;

function ageText(minutes: number): string {
  if (minutes < 1) return 'Atualizado agora';
  return minutes === 1 ? 'Atualizado há 1 minuto' : `Atualizado há ${minutes} minutos`;
}

/**
 * 'Atualizado agora', which ages while the page stays open, and a button to load the figures
 * again. Give it a new `key` with each load of the figures: its clock starts when it mounts.
 */
export function DashboardUpdated() {
  const [minutes, setMinutes] = useState(0);
  const revalidator = useRevalidator();
  const busy = revalidator.state !== 'idle';

  useEffect(() => {
    const mountedAt = Date.now();
    const timer = setInterval(
      () => setMinutes(Math.floor((Date.now() - mountedAt) / MINUTE_MS)),
      MINUTE_MS / 4,
    );
    return () => clearInterval(timer);
  }, []);

  return (
    <div className="flex flex-wrap items-center gap-3">
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <span aria-hidden="true" className="h-2 w-2 rounded-full bg-green-600" />
        {ageText(minutes)}
      </p>
      <button
        type="button"
        onClick={() => void revalidator.revalidate()}
        disabled={busy}
        className="admin-button-secondary"
      >
        {busy ? 'Atualizando...' : 'Atualizar'}
      </button>
    </div>
  );
}
