import QRCode from 'qrcode';

// The confirmation page asks again at every poll (every 5 s per open tab): draw each code once.
const CACHE_SIZE = 200;
const drawn = new Map<string, Promise<string>>();

/**
 * The QR image of a BR Code as inline SVG, sized by its container (no width or height). Level M
 * is what banks' apps print for PIX; the 4-module quiet zone is the QR standard's, which cameras
 * need to find the code against a busy page.
 */
export function pixQrSvg(code: string): Promise<string> {
  let svg = drawn.get(code);
  if (!svg) {
    svg = QRCode.toString(code, { type: 'svg', margin: 4, errorCorrectionLevel: 'M' });
    // A failed drawing is not kept: the next request tries again.
    svg.catch(() => drawn.delete(code));
    drawn.set(code, svg);
    if (drawn.size > CACHE_SIZE) drawn.delete(drawn.keys().next().value!);
  }
  return svg;
}
