type Command = (...args: unknown[]) => void;

// The vendors' command queues exist only when their scripts were loaded, which happens only
// after the shopper consented; without consent there is nothing to report to.
export interface TrackingWindow {
  gtag?: Command;
  fbq?: Command;
  ttq?: { track?: Command };
  pintrk?: Command;
  snaptr?: Command;
}

export interface TrackedItem {
  id: string;
  name: string;
  priceCents: number;
  quantity: number;
}
