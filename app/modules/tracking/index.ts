export { needsConsent, type Consent } from './consent';
export { trackAddToCart, trackPurchase, type TrackedItem } from './events';
export { inlineScriptText, type TrackingScript, type TrackingScripts } from './scripts';
