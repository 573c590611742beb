import { describe, expect, it } from 'vitest';

import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { needsConsent } from './consent';
import { inlineScriptText, parseCustomScripts, trackingScripts } from './scripts';

const settings = (values: Partial<StoreSettings>) => ({ ...defaultSettings(), ...values });

describe('tracking scripts', () => {
  it('loads nothing and asks for nothing when no tracking is configured', () => {
    expect(trackingScripts(defaultSettings())).toEqual({ head: [], bodyStart: [], bodyEnd: [] });
    expect(needsConsent(defaultSettings())).toBe(false);
  });

  it('sets up the Meta pixel with its id and the vendor file', () => {
    const s = settings({ facebook_pixel_id: '123456789012345' });
    expect(needsConsent(s)).toBe(true);
    const [pixel] = trackingScripts(s).head;
    expect(pixel?.src).toBe('https://connect.facebook.net/en_US/fbevents.js');
    expect(pixel?.code).toContain("fbq('init','123456789012345')");
  });

  it('shares one gtag set-up between analytics and ads', () => {
    const s = settings({
      google_analytics_id: 'G-ABC1234',
      google_ads_conversion_id: 'AW-1234567',
    });
    const keys = trackingScripts(s).head.map((script) => script.key);
    expect(keys).toEqual(['gtag', 'gtag-src']);
    const code = trackingScripts(s).head[0]?.code ?? '';
    expect(code).toContain("gtag('config','G-ABC1234')");
    expect(code).toContain("gtag('config','AW-1234567')");
  });

  it('puts each custom snippet where the store asked', () => {
    const s = settings({
      custom_head_scripts: 'window.headRan = true;',
      custom_footer_scripts: '<script>window.footerRan = true;</script>',
    });
    const scripts = trackingScripts(s);
    expect(scripts.head).toEqual([{ key: 'custom-head-0', code: 'window.headRan = true;' }]);
    expect(scripts.bodyStart).toEqual([]);
    expect(scripts.bodyEnd).toEqual([{ key: 'custom-footer-0', code: 'window.footerRan = true;' }]);
  });
});

describe('custom script snippets', () => {
  it('keeps external files and inline code, and drops other markup', () => {
    const snippet = `
      <!-- vendor -->
      <script async src="https://cdn.example.com/tag.js"></script>
      <script type="text/javascript">window.ready = 1;</script>
      <noscript><img src="https://example.com/pixel.gif"></noscript>`;
    expect(parseCustomScripts(snippet, 'x')).toEqual([
      { key: 'x-0', src: 'https://cdn.example.com/tag.js' },
      { key: 'x-1', code: 'window.ready = 1;' },
    ]);
  });

  it('refuses sources that are not http(s)', () => {
    expect(parseCustomScripts("<script src='javascript:alert(1)'></script>", 'x')).toEqual([]);
    expect(parseCustomScripts('<script src=data:text/javascript,1></script>', 'x')).toEqual([]);
  });

  it('cannot close the script element it is written into', () => {
    const text = inlineScriptText('var a = "</script><img src=x onerror=alert(1)>"; <!-- x');
    expect(text).not.toMatch(/<\/script/i);
    expect(text).not.toContain('<!--');
  });
});
