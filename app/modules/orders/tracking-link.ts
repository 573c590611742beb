/** Where a shopper follows a parcel, for the carriers whose codes tell them apart. */
export interface TrackingLink {
  carrier: string;
  url: string;
}

// The UPU S10 codes the Correios give a parcel posted in Brazil: two letters for the service,
// eight digits and a check digit, and BR. The check digit is not verified: a mistyped code
// still opens the Correios' page, which says it does not know it.
const CORREIOS_CODE = /^[A-Z]{2}\d{9}BR$/;

const CORREIOS_TRACKING_URL = 'https://rastreamento.correios.com.br/app/index.php';

/**
 * The carrier's tracking page for a code, or null when the code names no carrier we know (a
 * private carrier's code is shown as plain text).
 */
export function trackingLink(code: string): TrackingLink | null {
  const compact = code.replace(/[\s.-]+/g, '').toUpperCase();
  if (!CORREIOS_CODE.test(compact)) return null;
  return {
    carrier: 'Correios',
    url: `${CORREIOS_TRACKING_URL}?${new URLSearchParams({ objetos: compact })}`,
  };
}
