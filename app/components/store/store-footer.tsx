import { Link } from 'react-router';

import { useSettings } from '~/lib/store-data';
import { contactChannels } from '~/modules/content';
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

export function StoreFooter() {
  const settings = useSettings();
  const socials = SOCIAL_LINKS.filter(([key]) => settings[key]);
  // The address has its own place beside the store's name.
  const channels = contactChannels(settings).filter((channel) => channel.kind !== 'address');
  return (
    <footer className="mt-auto bg-footer text-footer-ink">
      <div
        className={`mx-auto grid max-w-store gap-8 px-4 py-10 ${
          settings.footer_style === 'compact' ? 'md:grid-cols-2' : 'md:grid-cols-3'
        }`}
      >
        <section aria-labelledby="footer-store">
          <h2 id="footer-store" className="mb-3 text-lg">
            {settings.store_name}
          </h2>
          {settings.footer_style === 'full' && settings.store_description ? (
            <p className="mb-3 text-sm opacity-90">{settings.store_description}</p>
          ) : null}
          {settings.contact_address ? (
            <address className="text-sm not-italic opacity-90">{settings.contact_address}</address>
          ) : null}
        </section>
        {settings.footer_style === 'full' ? (
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
            <ul className="space-y-1 text-sm">
              {channels.map((channel) => (
                <li key={channel.kind}>
                  {channel.label}:{' '}
                  <a
                    href={channel.href}
                    className="underline"
                    {...(channel.kind === 'whatsapp'
                      ? { target: '_blank', rel: 'noopener noreferrer' }
                      : {})}
                  >
                    {channel.value}
                  </a>
                </li>
              ))}
            </ul>
            {socials.length > 0 ? (
              <ul className="mt-4 flex flex-wrap gap-3 text-sm" aria-label="Redes sociais">
                {socials.map(([key, label]) => (
                  <li key={key}>
                    <a
                      href={settings[key]}
                      className="underline"
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
      </div>
      <div className="border-t border-white/20">
        <p className="mx-auto max-w-store px-4 py-4 text-sm opacity-90">
          {settings.footer_text || `${settings.store_name}. Todos os direitos reservados.`}
        </p>
      </div>
    </footer>
  );
}
