import type { RefObject } from 'react';

import { ContrastWarnings } from '~/components/admin/settings-contrast';
import { SettingsField } from '~/components/admin/settings-field';
import { SettingsPageEditor } from '~/components/admin/settings-page-editor';
import { SettingsGroupPanel } from '~/components/admin/settings-status';
import { tabId, tabPanelId } from '~/components/admin/settings-tabs';
import { CONTENT_PAGE_SLUGS, CONTENT_PAGES } from '~/modules/content';
import type { IntegrationStatus } from '~/modules/payments';
import { derivedColors, type StoreSettings } from '~/modules/settings';
import { SETTINGS_TABS, type SettingsTabId } from '~/modules/settings/index.admin';

const SLUG_OF_SETTING = new Map<string, (typeof CONTENT_PAGE_SLUGS)[number]>(
  CONTENT_PAGE_SLUGS.map((slug) => [CONTENT_PAGES[slug].textSetting, slug]),
);

/** Every tab's panel of the settings form, each group a fieldset; only the open tab shows. */
export function SettingsSections({
  tab,
  values,
  errors,
  integrations,
  form,
  preview,
}: {
  tab: SettingsTabId;
  values: Record<string, string>;
  errors: Record<string, string>;
  integrations: IntegrationStatus;
  form: RefObject<HTMLFormElement | null>;
  /** The settings with the form's current values, for the derived colours and the warnings. */
  preview: StoreSettings;
}) {
  const automatic: Record<string, string> = derivedColors(preview);
  return SETTINGS_TABS.map((section) => (
    <section
      key={section.id}
      id={tabPanelId(section.id)}
      role="tabpanel"
      aria-labelledby={tabId(section.id)}
      // Hidden, never unmounted: what was typed on another tab is still sent.
      hidden={section.id !== tab}
      className="space-y-4"
    >
      {section.id === 'design' ? <ContrastWarnings settings={preview} /> : null}
      {section.groups.map((group) => (
        <fieldset key={group.title} className="admin-card min-w-0 p-4">
          <legend className="float-left mb-3 w-full text-base font-semibold">{group.title}</legend>
          {group.description ? (
            <p className="clear-left mb-3 text-sm text-slate-600">{group.description}</p>
          ) : null}
          <div className="@container clear-left">
            {group.panel ? <SettingsGroupPanel panel={group.panel} status={integrations} /> : null}
            <div className={section.id === 'paginas' ? 'space-y-4' : 'grid gap-4 @xl:grid-cols-2'}>
              {group.fields.map((spec) => {
                const slug = SLUG_OF_SETTING.get(spec.key);
                const wide = spec.kind === 'textarea' || spec.kind === 'script';
                return slug ? (
                  <SettingsPageEditor
                    key={spec.key}
                    spec={spec}
                    slug={slug}
                    value={values[spec.key] ?? ''}
                    error={errors[spec.key]}
                    form={form}
                  />
                ) : (
                  <div key={spec.key} className={wide ? '@xl:col-span-2' : ''}>
                    <SettingsField
                      spec={spec}
                      value={values[spec.key] ?? ''}
                      error={errors[spec.key]}
                      automatic={automatic[spec.key]}
                      uploadError={spec.upload ? errors[spec.upload] : undefined}
                    />
                  </div>
                );
              })}
            </div>
          </div>
        </fieldset>
      ))}
    </section>
  ));
}
