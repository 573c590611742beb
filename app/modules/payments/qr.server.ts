import QRCode from 'qrcode';

/**
 * The QR image of a BR Code as inline SVG, sized by its container (no width or height). Level M
 * is what banks' apps print for PIX; the 4-module quiet zone is the QR standard's, which cameras
 * need to find the code against a busy page.
 */
export function pixQrSvg(code: string): Promise<string> {
  return QRCode.toString(code, { type: 'svg', margin: 4, errorCorrectionLevel: 'M' });
}
