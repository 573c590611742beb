export { needsConsent, type Consent } from './consent';
export { trackAddToCart, trackPurchase } from './events';
export { inlineScriptText, type TrackingScript, type TrackingScripts } from './scripts';
