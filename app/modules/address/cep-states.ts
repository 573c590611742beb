import type { StateCode } from '~/modules/checkout';

/**
 * The Correios' fixed ranges of CEPs per state, as the first five digits (inclusive). A CEP
 * tells its state without asking any service: the ranges have been stable since 1992, so a
 * shipping estimate works offline and for any CEP, even one the lookup service does not know.
 */
export const CEP_STATE_RANGES: readonly (readonly [from: number, to: number, state: StateCode])[] =
  [
    [1000, 19999, 'SP'],
    [20000, 28999, 'RJ'],
    [29000, 29999, 'ES'],
    [30000, 39999, 'MG'],
    [40000, 48999, 'BA'],
    [49000, 49999, 'SE'],
    [50000, 56999, 'PE'],
    [57000, 57999, 'AL'],
    [58000, 58999, 'PB'],
    [59000, 59999, 'RN'],
    [60000, 63999, 'CE'],
    [64000, 64999, 'PI'],
    [65000, 65999, 'MA'],
    [66000, 68899, 'PA'],
    [68900, 68999, 'AP'],
    [69000, 69299, 'AM'],
    [69300, 69399, 'RR'],
    [69400, 69899, 'AM'],
    [69900, 69999, 'AC'],
    [70000, 72799, 'DF'],
    [72800, 72999, 'GO'],
    [73000, 73699, 'DF'],
    [73700, 76799, 'GO'],
    [76800, 76999, 'RO'],
    [77000, 77999, 'TO'],
    [78000, 78899, 'MT'],
    [78900, 78999, 'RO'],
    [79000, 79999, 'MS'],
    [80000, 87999, 'PR'],
    [88000, 89999, 'SC'],
    [90000, 99999, 'RS'],
  ];

/** The state of a CEP given as its 8 digits; null for malformed input or 00000-000 to 00999-999. */
export function stateFromCep(digits: string): StateCode | null {
  if (!/^\d{8}$/.test(digits)) return null;
  const prefix = Number(digits.slice(0, 5));
  const range = CEP_STATE_RANGES.find(([from, to]) => prefix >= from && prefix <= to);
  return range ? range[2] : null;
}
