import { describe, expect, it } from 'vitest';

import { defaultSettings } from '~/modules/settings';

import { contactChannels } from './contact';

describe('contact channels', () => {
  it('are empty when nothing is configured', () => {
    expect(contactChannels(defaultSettings())).toEqual([]);
  });

  it('list the configured ones with their links, WhatsApp first', () => {
    const channels = contactChannels({
      ...defaultSettings(),
      contact_email: 'oi@loja.com.br',
      contact_phone: '(11) 4000-1234',
      contact_whatsapp: '5511987654321',
      contact_address: 'Rua A, 1\nCentro',
    });
    expect(channels).toEqual([
      {
        kind: 'whatsapp',
        label: 'WhatsApp',
        value: '+55 (11) 98765-4321',
        href: 'https://wa.me/5511987654321',
      },
      { kind: 'email', label: 'E-mail', value: 'oi@loja.com.br', href: 'mailto:oi@loja.com.br' },
      { kind: 'phone', label: 'Telefone', value: '(11) 4000-1234', href: 'tel:1140001234' },
      { kind: 'address', label: 'Endereço', value: 'Rua A, 1 Centro' },
    ]);
  });

  it('add Brazil’s country code to a WhatsApp number stored without it', () => {
    const [whatsapp] = contactChannels({ ...defaultSettings(), contact_whatsapp: '1140001234' });
    expect(whatsapp).toMatchObject({
      value: '+55 (11) 4000-1234',
      href: 'https://wa.me/551140001234',
    });
  });
});
