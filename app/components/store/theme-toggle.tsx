import { useEffect, useState } from 'react';
import { Form, useFetcher, useLocation } from 'react-router';

import { MoonIcon, SunIcon } from '~/components/ui/icons';

/** Switches between the light and dark schemes (when the store offers dark mode). */
export function ThemeToggle({ scheme }: { scheme: 'dark' | 'light' | null }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const [dark, setDark] = useState(scheme === 'dark');

  // Without a stored choice the page follows the device, which only the browser knows.
  useEffect(() => {
    setDark(scheme ? scheme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches);
  }, [scheme]);

  const next = dark ? 'light' : 'dark';
  return (
    <Form
      method="post"
      action="/preferences"
      onSubmit={(event) => {
        // With JavaScript the change applies at once and is saved in the background.
        event.preventDefault();
        document.documentElement.dataset.theme = next;
        setDark(!dark);
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
