export { parcelFor, type ParcelDefaults, type ParcelItem } from './parcel';
export { storeOptions, type OptionSettings } from './options';
export {
  APPROXIMATE_SHIPPING,
  deliveryDays,
  shippingLineLabel,
  type CarrierQuote,
  type OrderShipping,
  type Parcel,
  type QuoteRequest,
  type ShippingOffer,
  type ShippingOption,
  type ShippingOptionView,
  type ShippingProvider,
  type ShippingQuote,
} from './types';
