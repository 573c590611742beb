import { contactChannels } from '~/modules/content';
import { STORE_NOT_SELLING } from '~/modules/payments';

import { useSettings } from './store-data';
import { ContactChannelList } from './store-footer';

/**
 * Where buying starts on a store that cannot take a payment yet (the product page, the cart,
 * checkout): says so, with the ways to reach the store, in place of buttons that would lead the
 * shopper to a checkout that refuses them.
 */
export function NotSellingNotice({ className = '' }: { className?: string }) {
  const settings = useSettings();
  const channels = contactChannels(settings).filter((channel) => channel.href);
  return (
    <div
      role="note"
      className={`rounded-card border-l-4 border-accent bg-card p-4 ${className}`}
      data-testid="not-selling"
    >
      <p className="font-semibold">{STORE_NOT_SELLING}</p>
      {channels.length > 0 ? (
        <>
          <p className="mt-2 text-sm">Para falar com a loja:</p>
          <ContactChannelList
            channels={channels}
            className="text-sm"
            linkClassName="inline-block py-1 text-link underline"
          />
        </>
      ) : null}
    </div>
  );
}
