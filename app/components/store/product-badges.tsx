import { formatCents } from '~/lib/money';
import { freeShippingFromCents, type ShippingSettings } from '~/modules/pricing';
import type { StoreSettings } from '~/modules/settings';

type BadgeSettings = ShippingSettings & Pick<StoreSettings, 'return_window_days'>;

/** The store's promises, from its settings: shipping, secure purchase, return window. */
export function ProductBadges({ settings }: { settings: BadgeSettings }) {
  const badges = [
    shippingBadge(settings),
    'Compra segura',
    `${settings.return_window_days} dias para troca`,
  ].filter((badge): badge is string => badge !== null);
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Vantagens">
      {badges.map((badge) => (
        <li
          key={badge}
          className="flex items-center gap-1.5 rounded-button border border-card-border bg-card px-3 py-1.5 text-sm"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="16"
            height="16"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
            strokeLinejoin="round"
            className="shrink-0 text-icon"
          >
            <path d="m5 12.5 4.5 4.5L19 7.5" />
          </svg>
          {badge}
        </li>
      ))}
    </ul>
  );
}

function shippingBadge(settings: BadgeSettings): string | null {
  const freeFrom = freeShippingFromCents(settings);
  if (freeFrom === null) return null;
  return freeFrom === 0 ? 'Frete grátis' : `Frete grátis acima de ${formatCents(freeFrom)}`;
}
