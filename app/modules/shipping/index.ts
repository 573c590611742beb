export { parcelFor, type ParcelDefaults, type ParcelItem } from './parcel';
export { storeOptions, type OptionSettings } from './options';
export {
  APPROXIMATE_SHIPPING,
  deliveryDays,
  shippingLineLabel,
  type CarrierQuote,
  type LabelStep,
  type OrderShipping,
  type Parcel,
  type QuoteRequest,
  type ShippingOffer,
  type ShippingOption,
  type ShippingOptionView,
  type ShippingLabel,
  type ShippingProvider,
  type ShippingQuote,
} from './types';
