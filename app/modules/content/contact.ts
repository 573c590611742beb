import { telUrl, whatsappDigits, whatsappUrl } from '~/lib/contact';
import type { StoreSettings } from '~/modules/settings';

export interface ContactChannel {
  kind: 'whatsapp' | 'email' | 'phone' | 'address';
  label: string;
  /** As shoppers read it, such as "+55 (11) 98765-4321". */
  value: string;
  /** wa.me, mailto: or tel: link; the address has none. */
  href?: string;
}

/** "5511987654321" as "+55 (11) 98765-4321"; numbers stored without the country code get it. */
function formatWhatsapp(number: string): string {
  const international = whatsappDigits(number);
  const brazil = /^55(\d{2})(\d{4,5})(\d{4})$/.exec(international);
  return brazil ? `+55 (${brazil[1]}) ${brazil[2]}-${brazil[3]}` : `+${international}`;
}

/** The store's configured contact channels, in the order shoppers prefer them. */
export function contactChannels(
  settings: Pick<
    StoreSettings,
    'contact_whatsapp' | 'contact_email' | 'contact_phone' | 'contact_address'
  >,
): ContactChannel[] {
  const channels: ContactChannel[] = [];
  if (settings.contact_whatsapp) {
    channels.push({
      kind: 'whatsapp',
      label: 'WhatsApp',
      value: formatWhatsapp(settings.contact_whatsapp),
      href: whatsappUrl(settings.contact_whatsapp),
    });
  }
  if (settings.contact_email) {
    channels.push({
      kind: 'email',
      label: 'E-mail',
      value: settings.contact_email,
      href: `mailto:${settings.contact_email}`,
    });
  }
  if (settings.contact_phone) {
    channels.push({
      kind: 'phone',
      label: 'Telefone',
      value: settings.contact_phone,
      href: telUrl(settings.contact_phone),
    });
  }
  if (settings.contact_address) {
    channels.push({
      kind: 'address',
      label: 'Endereço',
      value: settings.contact_address.replace(/\s+/g, ' '),
    });
  }
  return channels;
}
