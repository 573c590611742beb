import { Link } from 'react-router';

import type { StoreSettings } from '~/modules/settings';

export function StoreHeader({ settings }: { settings: StoreSettings }) {
  return (
    <header className="border-b border-card-border bg-header text-header-ink">
      <div className="mx-auto flex max-w-store items-center gap-3 px-4 py-3">
        <Link
          to="/"
          className="flex items-center gap-3"
          aria-label={`${settings.store_name}: início`}
        >
          {settings.logo_url ? (
            <img
              src={settings.logo_url}
              alt=""
              width={40}
              height={40}
              className="h-10 w-10 object-contain"
            />
          ) : null}
          <span className="font-heading text-xl font-bold">{settings.store_name}</span>
        </Link>
      </div>
    </header>
  );
}
