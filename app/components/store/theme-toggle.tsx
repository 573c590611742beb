import { useState, useSyncExternalStore } from 'react';
import { Form, useFetcher, useLocation } from 'react-router';

import { MoonIcon, SunIcon } from '~/components/ui/icons';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeToDevice(onChange: () => void) {
  const query = matchMedia(DARK_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the device prefers dark; the server cannot know, so it renders the light answer. */
function useDevicePrefersDark(): boolean {
  return useSyncExternalStore(
    subscribeToDevice,
    () => matchMedia(DARK_QUERY).matches,
    () => false,
  );
}

/** Switches between the light and dark schemes (when the store offers dark mode). */
export function ThemeToggle({ scheme }: { scheme: 'dark' | 'light' | null }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const [choice, setChoice] = useState(scheme);
  const deviceDark = useDevicePrefersDark();
  // Without a choice of the shopper's own, the page follows the device.
  const dark = choice ? choice === 'dark' : deviceDark;
  const next = dark ? 'light' : 'dark';
  return (
    <Form
      method="post"
      action="/preferences"
      onSubmit={(event) => {
        // With JavaScript the change applies at once and is saved in the background.
        event.preventDefault();
        document.documentElement.dataset.theme = next;
        setChoice(next);
        fetcher.submit(
          { intent: 'theme', theme: next },
          { method: 'post', action: '/preferences' },
        );
      }}
    >
      <input type="hidden" name="intent" value="theme" />
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button
        type="submit"
        className="inline-flex h-11 w-11 items-center justify-center rounded-button text-icon"
        aria-label="Tema escuro"
        aria-pressed={dark}
      >
        {dark ? <SunIcon /> : <MoonIcon />}
      </button>
    </Form>
  );
}
