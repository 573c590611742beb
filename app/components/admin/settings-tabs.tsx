import { useEffect, useRef } from 'react';

import type { SettingsTab, SettingsTabId } from '~/modules/settings/index.admin';

export const tabId = (id: SettingsTabId) => `settings-tab-${id}`;
export const tabPanelId = (id: SettingsTabId) => `settings-panel-${id}`;

/**
 * The settings' sections as ARIA tabs: a column beside the form on wide screens, a bar that
 * scrolls sideways on phones. Arrow keys, Home and End move between tabs; a tab holding a wrong
 * field is marked.
 */
export function SettingsTabList({
  tabs,
  active,
  withErrors,
  onSelect,
}: {
  tabs: readonly SettingsTab[];
  active: SettingsTabId;
  withErrors: ReadonlySet<SettingsTabId>;
  onSelect: (id: SettingsTabId) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  // On a phone the bar scrolls sideways: the open tab (also one opened by ?aba= or by an error)
  // is brought into view, without moving the page.
  useEffect(() => {
    const bar = list.current;
    const button = document.getElementById(tabId(active));
    if (!bar || !button || bar.scrollWidth <= bar.clientWidth) return;
    const barBox = bar.getBoundingClientRect();
    const box = button.getBoundingClientRect();
    if (box.left < barBox.left || box.right > barBox.right) {
      bar.scrollLeft += box.left - barBox.left - 16;
    }
  }, [active]);
  const select = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    onSelect(tab.id);
    const button = document.getElementById(tabId(tab.id));
    button?.focus();
  };
  const onKeyDown = (event: React.KeyboardEvent, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(next);
  };
  return (
    <div
      ref={list}
      role="tablist"
      aria-label="Seções das configurações"
      className="-mx-4 flex shrink-0 gap-1 overflow-x-auto px-4 pb-1 lg:sticky lg:top-40 lg:mx-0 lg:w-40 lg:flex-col lg:self-start lg:overflow-visible lg:px-0"
    >
      {tabs.map((tab, index) => {
        const selected = tab.id === active;
        const wrong = withErrors.has(tab.id);
        return (
          <button
            key={tab.id}
            id={tabId(tab.id)}
            type="button"
            role="tab"
            aria-selected={selected}
            aria-controls={tabPanelId(tab.id)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`relative flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-left text-sm font-medium whitespace-nowrap ${
              selected
                ? 'bg-blue-700 text-white'
                : 'bg-white text-slate-800 ring-1 ring-slate-200 hover:bg-slate-50'
            }`}
          >
            {tab.label}
            {wrong ? (
              <>
                <span
                  aria-hidden="true"
                  className={`h-2 w-2 rounded-full ${selected ? 'bg-white' : 'bg-red-600'}`}
                />
                <span className="sr-only"> (com erros)</span>
              </>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
