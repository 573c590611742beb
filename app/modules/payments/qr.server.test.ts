import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';

import { buildPixCode } from './brcode';
import { pixQrSvg } from './qr.server';

describe('pixQrSvg', () => {
  const code = buildPixCode({
    key: '123e4567-e12b-42d1-a456-426655440000',
    merchantName: 'Loja Vitrine',
    merchantCity: 'Curitiba',
    amountCents: 1999,
    txid: 'ABC123',
  })!;

  it('draws the code at level M with a 4-module quiet zone, as a scalable SVG', async () => {
    const svg = await pixQrSvg(code);
    const modules = QRCode.create(code, { errorCorrectionLevel: 'M' }).modules.size;
    const side = modules + 2 * 4;
    expect(svg).toMatch(new RegExp(`^<svg [^>]*viewBox="0 0 ${side} ${side}"`));
    expect(svg).not.toMatch(/<svg [^>]*\swidth=/);
    expect(svg.trim()).toMatch(/<\/svg>$/);
  });
});
