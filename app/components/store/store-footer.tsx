import { Link } from 'react-router';

import { useSettings, useStoreData } from '~/components/store/store-data';
import { contactChannels, type ContactChannel } from '~/modules/content';
import type { StoreSettings } from '~/modules/settings';

import { MENU_LINKS } from './navigation';

const SOCIAL_LINKS = [
  ['facebook_url', 'Facebook'],
  ['instagram_url', 'Instagram'],
  ['twitter_url', 'X (Twitter)'],
  ['youtube_url', 'YouTube'],
  ['linkedin_url', 'LinkedIn'],
  ['tiktok_url', 'TikTok'],
] as const satisfies readonly (readonly [keyof StoreSettings, string])[];

// The ways to pay the store accepts, as its settings say; PIX first, as Brazilians pay.
const PAYMENT_METHODS = [
  ['enable_pix', 'PIX'],
  ['enable_credit_card', 'Cartão de crédito'],
  ['enable_debit_card', 'Cartão de débito'],
  ['enable_boleto', 'Boleto'],
  ['enable_paypal', 'PayPal'],
] as const satisfies readonly (readonly [keyof StoreSettings, string])[];

/**
 * Who the store is (Decreto 7.962/2013: legal name, CNPJ, address and contact), its pages,
 * social links, the ways to pay, and the copyright line with the year of the server's clock,
 * passed down by the store layout so the browser renders the same year.
 */
/** The store's ways to be reached, each a link ('E-mail: …'), as the footer and notices list them. */
export function ContactChannelList({
  channels,
  className,
  linkClassName,
}: {
  channels: readonly ContactChannel[];
  className: string;
  linkClassName: string;
}) {
  return (
    <ul className={className}>
      {channels.map((channel) => (
        <li key={channel.kind} className="break-words">
          {channel.label}:{' '}
          <a
            href={channel.href}
            className={linkClassName}
            {...(channel.kind === 'whatsapp'
              ? { target: '_blank', rel: 'noopener noreferrer' }
              : {})}
          >
            {channel.value}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function StoreFooter() {
  const settings = useSettings();
  const year = useStoreData()?.year ?? new Date().getFullYear();
  const socials = SOCIAL_LINKS.filter(([key]) => settings[key]);
  const payments = PAYMENT_METHODS.filter(([key]) => settings[key]);
  // The address has its own place beside the store's name.
  const channels = contactChannels(settings).filter((channel) => channel.kind !== 'address');
  const full = settings.footer_style === 'full';
  // 'Ltda.' already ends the sentence.
  const owner = (settings.legal_name || settings.store_name).replace(/\.$/, '');
  return (
    <footer className="mt-auto bg-footer text-footer-ink">
      <div
        className={`mx-auto grid max-w-store gap-8 px-4 py-10 md:grid-cols-2 ${
          full ? 'lg:grid-cols-4' : 'lg:grid-cols-3'
        }`}
      >
        <section aria-labelledby="footer-store">
          <h2 id="footer-store" className="mb-3 text-lg">
            {settings.store_name}
          </h2>
          {full && settings.store_description ? (
            <p className="mb-3 text-sm opacity-90">{settings.store_description}</p>
          ) : null}
          <div className="space-y-1 text-sm opacity-90" data-testid="footer-identity">
            {settings.legal_name ? <p>{settings.legal_name}</p> : null}
            {settings.cnpj ? <p>CNPJ {settings.cnpj}</p> : null}
            {settings.contact_address ? (
              <address className="not-italic">{settings.contact_address}</address>
            ) : null}
          </div>
        </section>
        {full ? (
          <nav aria-labelledby="footer-menu">
            <h2 id="footer-menu" className="mb-3 text-lg">
              Institucional
            </h2>
            <ul className="space-y-1 text-sm">
              {MENU_LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="inline-block py-1 underline-offset-2 hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {channels.length > 0 || socials.length > 0 ? (
          <section aria-labelledby="footer-contact">
            <h2 id="footer-contact" className="mb-3 text-lg">
              Atendimento
            </h2>
            <ContactChannelList
              channels={channels}
              className="space-y-1 text-sm"
              linkClassName="inline-block py-1 underline"
            />
            {socials.length > 0 ? (
              <ul
                className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm"
                aria-label="Redes sociais"
              >
                {socials.map(([key, label]) => (
                  <li key={key}>
                    <a
                      href={settings[key]}
                      className="inline-block py-1 underline"
                      rel="noopener noreferrer"
                      target="_blank"
                    >
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        ) : null}
        {payments.length > 0 ? (
          <section aria-labelledby="footer-payments">
            <h2 id="footer-payments" className="mb-3 text-lg">
              Formas de pagamento
            </h2>
            <ul className="flex flex-wrap gap-2" data-testid="footer-payments">
              {payments.map(([key, label]) => (
                <li
                  key={key}
                  className="rounded-button border border-current/40 px-2 py-1 text-xs font-semibold"
                >
                  {label}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
      <div className="border-t border-white/20">
        <div className="mx-auto max-w-store space-y-1 px-4 py-4 text-sm opacity-90">
          {settings.footer_text ? <p>{settings.footer_text}</p> : null}
          <p data-testid="footer-copyright">
            © {year} {owner}. Todos os direitos reservados.
          </p>
        </div>
      </div>
    </footer>
  );
}
