import { useEffect, useMemo, useRef, useState } from 'react';
import { Form, useNavigation } from 'react-router';

import { SettingsField, fieldId } from '~/components/admin/settings-field';
import { SettingsPageEditor } from '~/components/admin/settings-page-editor';
import { SettingsPreview } from '~/components/admin/settings-preview';
import { SettingsGroupPanel } from '~/components/admin/settings-status';
import { SettingsTabList, tabId, tabPanelId } from '~/components/admin/settings-tabs';
import { useToastFrom } from '~/components/admin/toaster';
import { ADMIN_FORM } from '~/components/admin/form-look';
import { ErrorSummary, SubmitButton } from '~/components/ui/form';
import { useFormCheck } from '~/lib/use-form-check';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import type { Toast } from '~/lib/toast';
import { redirectWithToast, refuseForm, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import { CONTENT_PAGE_SLUGS, CONTENT_PAGES } from '~/modules/content';
import {
  PINNED_FIELDS,
  previewSettings,
  SETTINGS_FORM_FIELDS,
  SETTINGS_TABS,
  settingsFormSchema,
  settingsFormValues,
  settingsTabFrom,
  tabOfField,
  type SettingsTabId,
  type StoreSettings,
} from '~/modules/settings';
import {
  integrationStatus,
  saveSettingsForm,
  settingsBaseline,
} from '~/modules/settings/index.server';

import type { Route } from './+types/settings';

const SAVED = 'Configurações salvas com sucesso!';
const NOT_SAVED = 'Erro ao salvar configurações';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const settings = await context.settings.get();
  return {
    settings,
    baseline: settingsBaseline(settings),
    // Yes/no answers only: the secrets themselves never leave the server.
    integrations: integrationStatus(context.secretsSet, await context.payments(), settings),
    tab: settingsTabFrom(new URL(request.url).searchParams.get('aba')),
  };
}

type ActionReply = {
  toast: Toast;
  error?: string;
  fieldErrors?: Record<string, string>;
  /** What was sent, to fill the form again when the page is shown without JavaScript. */
  values?: Record<string, string>;
};

// Longer than any setting takes (the page texts, 20,000 characters): nothing typed is cut.
const MAX_ECHOED_LENGTH = 20_000;

/** This page's address (with its ?aba=), without what single-fetch data requests add. */
function pageUrl(request: Request): string {
  const url = new URL(request.url);
  const tab = url.searchParams.get('aba');
  return `${url.pathname.replace(/\.data$/, '')}${tab ? `?${new URLSearchParams({ aba: tab })}` : ''}`;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(context, request);
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const parsed = await parseForm(request, settingsFormSchema, {
    maxEchoedLength: MAX_ECHOED_LENGTH,
  });
  if (!parsed.ok) {
    return refuseForm(NOT_SAVED, parsed);
  }
  let result;
  try {
    result = await saveSettingsForm(context.settings, parsed.data);
  } catch (error) {
    logger.error({ err: error }, 'Could not save the store settings');
    return refuseForm(`${NOT_SAVED}. Tente novamente em instantes.`, {}, 503);
  }
  if (!result.success) {
    // Every field passed the form's checks, so the values it sent read back as the form shows them.
    const sent = { ...(await context.settings.get()), ...parsed.data };
    return refuseForm(NOT_SAVED, {
      fieldErrors: result.errors as Record<string, string>,
      values: settingsFormValues(sent),
    });
  }
  if (result.changed?.length) logger.info({ changed: result.changed }, 'Store settings saved');
  // Back to the page (the layout shows the toast): a reload then asks for the page, not a resend.
  return redirectWithToast(pageUrl(request), toast('success', SAVED));
}

export function meta() {
  return [
    { title: 'Configurações da Loja · Painel' },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

const SLUG_OF_SETTING = new Map<string, (typeof CONTENT_PAGE_SLUGS)[number]>(
  CONTENT_PAGE_SLUGS.map((slug) => [CONTENT_PAGES[slug].textSetting, slug]),
);

/** The field that should get focus after a refused save: the first wrong one, in page order. */
function firstWrongField(errors: Record<string, string>): string | null {
  return SETTINGS_FORM_FIELDS.find((spec) => errors[spec.key])?.key ?? null;
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, integrations } = loaderData;
  const reply = actionData as ActionReply | undefined;
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const saving =
    navigation.state !== 'idle' &&
    navigation.formMethod === 'POST' &&
    navigation.formAction?.split('?')[0] === '/admin/settings';

  const firstWrong = firstWrongField(reply?.fieldErrors ?? {});
  const [tab, setTab] = useState<SettingsTabId>(
    () => (firstWrong && tabOfField(firstWrong)) || loaderData.tab,
  );
  const { errors: clientErrors, check } = useFormCheck(settingsFormSchema);
  const [clientReply, setClientReply] = useState<{ toast: Toast } | null>(null);
  const clientToasts = useRef(0);
  useToastFrom(reply);
  useToastFrom(clientReply);

  // A refused save (here or by the server) opens the tab of the first wrong field and focuses it.
  const [focusTarget, setFocusTarget] = useState(firstWrong ? { key: firstWrong } : null);
  const showField = (key: string) => {
    const owner = tabOfField(key);
    if (owner) setTab(owner);
    setFocusTarget({ key });
  };
  const [seenReply, setSeenReply] = useState(reply);
  if (reply !== seenReply) {
    setSeenReply(reply);
    if (firstWrong) showField(firstWrong);
  }
  useEffect(() => {
    if (focusTarget) document.getElementById(fieldId(focusTarget.key))?.focus();
  }, [focusTarget]);

  // The preview follows the form as staff type; after a save it starts from the saved record.
  const [draft, setDraft] = useState<{ from: StoreSettings; preview: StoreSettings } | null>(null);
  const preview = draft?.from === settings ? draft.preview : settings;
  const updatePreview = () => {
    if (form.current) {
      setDraft({ from: settings, preview: previewSettings(new FormData(form.current), settings) });
    }
  };

  const errors = clientErrors ?? reply?.fieldErrors ?? {};
  const savedValues = useMemo(() => settingsFormValues(settings), [settings]);
  const values = reply?.values ?? savedValues;
  const tabsWithErrors = new Set(
    Object.keys(errors)
      .map(tabOfField)
      .filter((id) => id !== null),
  );

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    // A double click must not send the form twice.
    if (saving) {
      event.preventDefault();
      return;
    }
    const refused = check(event);
    if (!refused) return;
    const wrong = firstWrongField(refused);
    if (wrong) showField(wrong);
    clientToasts.current += 1;
    setClientReply({
      toast: { id: `settings-client-${clientToasts.current}`, kind: 'error', message: NOT_SAVED },
    });
  };

  const summary =
    Object.keys(errors).length > 0
      ? 'Confira os campos marcados: nada foi salvo.'
      : (reply?.error ?? null);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold">Configurações da Loja</h1>
        <p className="mt-1 text-sm text-slate-600">
          Nome, aparência, textos, contatos e pagamentos da loja. Nada muda na loja até você salvar.
        </p>
      </div>
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem] 2xl:grid-cols-[minmax(0,1fr)_28rem]">
        <Form
          ref={form}
          method="post"
          encType="multipart/form-data"
          noValidate
          onSubmit={onSubmit}
          onChange={updatePreview}
          className="min-w-0 space-y-4"
          aria-describedby={summary ? 'settings-error' : undefined}
        >
          <input type="hidden" name="_baseline" value={loaderData.baseline} />
          {/* After a save the fields start again from the saved (normalised) values. */}
          <div key={loaderData.baseline} className="space-y-4">
            <div className="admin-card flex flex-col gap-3 p-4 sm:flex-row sm:items-end lg:sticky lg:top-0 lg:z-10">
              <div className="min-w-0 flex-1">
                {PINNED_FIELDS.map((spec) => (
                  <SettingsField
                    key={spec.key}
                    spec={spec}
                    value={values[spec.key] ?? ''}
                    error={errors[spec.key]}
                  />
                ))}
              </div>
              <SubmitButton
                busy={saving}
                busyLabel="Salvando..."
                className="admin-button-primary shrink-0 sm:mb-[1.25rem]"
              >
                Salvar Configurações
              </SubmitButton>
            </div>
            {summary ? (
              <ErrorSummary
                look={ADMIN_FORM}
                id="settings-error"
                message={summary}
                className="border border-red-200"
              />
            ) : null}
            <div className="flex flex-col gap-4 lg:flex-row">
              <SettingsTabList
                tabs={SETTINGS_TABS}
                active={tab}
                withErrors={tabsWithErrors}
                onSelect={setTab}
              />
              <div className="min-w-0 flex-1">
                {SETTINGS_TABS.map((section) => (
                  <section
                    key={section.id}
                    id={tabPanelId(section.id)}
                    role="tabpanel"
                    aria-labelledby={tabId(section.id)}
                    // Hidden, never unmounted: what was typed on another tab is still sent.
                    hidden={section.id !== tab}
                    className="space-y-4"
                  >
                    {section.groups.map((group) => (
                      <fieldset key={group.title} className="admin-card min-w-0 p-4">
                        <legend className="float-left mb-3 w-full text-base font-semibold">
                          {group.title}
                        </legend>
                        {group.description ? (
                          <p className="clear-left mb-3 text-sm text-slate-600">
                            {group.description}
                          </p>
                        ) : null}
                        <div className="@container clear-left">
                          {group.panel ? (
                            <SettingsGroupPanel panel={group.panel} status={integrations} />
                          ) : null}
                          <div
                            className={
                              section.id === 'paginas' ? 'space-y-4' : 'grid gap-4 @xl:grid-cols-2'
                            }
                          >
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
                                  />
                                </div>
                              );
                            })}
                          </div>
                        </div>
                      </fieldset>
                    ))}
                  </section>
                ))}
              </div>
            </div>
          </div>
        </Form>
        <div className="min-w-0 xl:sticky xl:top-4">
          <SettingsPreview settings={preview} />
        </div>
      </div>
    </div>
  );
}
