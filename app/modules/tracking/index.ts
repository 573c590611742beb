export { needsConsent, type Consent } from './consent';
export { trackAddToCart, trackPurchase } from './report';
export { inlineScriptText, type TrackingScript, type TrackingScripts } from './scripts';
