export { needsConsent, type Consent } from './consent';
export { trackAddToCart, type TrackedItem } from './events';
export {
  inlineScriptText,
  parseCustomScripts,
  trackingScripts,
  type TrackingScript,
  type TrackingScripts,
} from './scripts';
