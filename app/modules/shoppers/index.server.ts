export {
  checkShopperCode,
  issueShopperCode,
  requestShopperCode,
  type CodeCheck,
  type ShopperCodeMail,
} from './codes.server';
export {
  clearShopperCookie,
  endShopperSession,
  findSignedInShopper,
  SHOPPER_SESSION_MS,
  startShopperSession,
  type SignedInShopper,
} from './session.server';
export {
  addFavorites,
  deleteShopper,
  ensureShopper,
  listAddresses,
  listFavoriteIds,
  MAX_ADDRESSES,
  removeAddress,
  removeFavorite,
  saveAddress,
  setDefaultAddress,
  shopperDataPart,
  type SaveAddressResult,
} from './shoppers.server';
export type { ShopperCodePurpose } from './schema';
