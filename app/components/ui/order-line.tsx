import { isOwnImage } from '~/lib/admin-path';

import { Money } from './money';
import { Thumbnail } from './thumbnail';

/** What an order line shows, from a cart about to be ordered or an order already placed. */
export interface OrderLineView {
  name: string;
  /** The variant's option values ('Tamanho: G'); none for a product sold without options. */
  options?: readonly { name: string; value: string }[];
  /** The variant's SKU, shown to staff. */
  sku?: string | null;
  imageUrl: string | null;
  quantity: number;
  totalCents: number;
  /** Given, the quantity reads "Quantidade: 2 × R$ 10,00". */
  unitPriceCents?: number;
}

const LOOKS = {
  store: {
    size: 56,
    box: 'h-14 w-14 rounded-card',
    empty: 'bg-page',
    name: '',
    detail: 'text-sm',
  },
  admin: {
    size: 64,
    box: 'h-16 w-16 rounded border border-slate-200',
    empty: 'bg-slate-200',
    name: 'font-medium',
    detail: 'text-sm text-slate-600',
  },
} as const;

/**
 * One line of an order, wherever it is shown (checkout, thank-you page, order history, admin):
 * the picture, the name, the quantity and the line's total. `compact` puts the quantity after
 * the name ("Fone × 2"), for a list of many orders.
 */
export function OrderLine({
  line,
  look,
  srcSet,
  compact = false,
  className = '',
}: {
  line: OrderLineView;
  /** The storefront's theme or the admin's neutral look. */
  look: keyof typeof LOOKS;
  /** The picture's smaller sizes, when the media library has them (mediaSrcSet). */
  srcSet?: (url: string) => string | undefined;
  compact?: boolean;
  className?: string;
}) {
  const { size, box, empty, name, detail } = LOOKS[look];
  // The admin's Content-Security-Policy loads no picture from another site (ADR 019).
  const src =
    line.imageUrl && (look === 'store' || isOwnImage(line.imageUrl)) ? line.imageUrl : null;
  return (
    <li className={`flex items-center gap-3 ${className}`}>
      <Thumbnail
        src={src}
        srcSet={src ? srcSet?.(src) : undefined}
        size={size}
        className={box}
        fallback={<span aria-hidden="true" className={`${box} ${empty} shrink-0`} />}
      />
      {compact ? (
        <span className="min-w-0 flex-1 break-words">
          {line.name}
          {line.options?.length
            ? ` — ${line.options.map((option) => option.value).join(' / ')}`
            : ''}{' '}
          × {line.quantity}
        </span>
      ) : (
        <div className="min-w-0 flex-1">
          <p className={`break-words ${name}`}>{line.name}</p>
          {line.options && line.options.length > 0 ? (
            <p className={detail}>
              {line.options.map((option) => `${option.name}: ${option.value}`).join(' · ')}
            </p>
          ) : null}
          {look === 'admin' && line.sku ? <p className={detail}>SKU: {line.sku}</p> : null}
          <p className={detail}>
            Quantidade: {line.quantity}
            {line.unitPriceCents === undefined ? null : (
              <>
                {' × '}
                <Money cents={line.unitPriceCents} />
              </>
            )}
          </p>
        </div>
      )}
      <Money cents={line.totalCents} className="font-semibold" />
    </li>
  );
}
