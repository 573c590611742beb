import { Form } from 'react-router';

import { SettingsPreview } from '~/components/admin/settings-preview';
import { SettingsSections } from '~/components/admin/settings-sections';
import { SettingsTabList } from '~/components/admin/settings-tabs';
import {
  SETTINGS_NOT_SAVED,
  useSettingsForm,
  type SettingsReply,
} from '~/components/admin/use-settings-form';
import { ADMIN_FORM } from '~/components/admin/form-look';
import { ErrorSummary, SubmitButton } from '~/components/ui/form';
import {
  BRAND_UPLOAD_FILES,
  saveSettingsWithUploads,
  settingsScreen,
} from '~/flows/save-settings.server';
import { parseForm, refuseOtherMethods } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { redirectWithToast, refuseForm, toast } from '~/lib/toast.server';
import { requireAdmin } from '~/modules/auth/index.server';
import {
  SETTINGS_FORM_FIELDS,
  SETTINGS_TABS,
  settingsFormSchema,
  settingsFormValues,
  settingsTabFrom,
} from '~/modules/settings/index.admin';

import type { Route } from './+types/settings';

const SAVED = 'Configurações salvas com sucesso!';

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  return {
    ...(await settingsScreen(context)),
    tab: settingsTabFrom(new URL(request.url).searchParams.get('aba')),
  };
}

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
    files: {
      folder: context.uploadFolder,
      ...BRAND_UPLOAD_FILES,
      // One field per setting, and the baseline.
      maxFields: SETTINGS_FORM_FIELDS.length + 1,
    },
  });
  if (!parsed.ok) {
    return refuseForm(SETTINGS_NOT_SAVED, parsed);
  }
  let result;
  try {
    result = await saveSettingsWithUploads(context.db, context.settings, parsed.data);
  } catch (error) {
    logger.error({ err: error }, 'Could not save the store settings');
    return refuseForm(`${SETTINGS_NOT_SAVED}. Tente novamente em instantes.`, {}, 503);
  }
  if (!result.success) {
    // Every field passed the form's checks, so the values it sent read back as the form shows them.
    const sent = { ...(await context.settings.get()), ...parsed.data };
    return refuseForm(SETTINGS_NOT_SAVED, {
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
    { title: 'Configurações da loja · Painel' },
    { name: 'robots', content: 'noindex, nofollow' },
  ];
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, integrations } = loaderData;
  const { form, saving, tab, setTab, errors, values, tabsWithErrors, summary, ...state } =
    useSettingsForm({
      settings,
      initialTab: loaderData.tab,
      reply: actionData as SettingsReply | undefined,
    });

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-bold">Configurações da loja</h1>
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
          onSubmit={state.onSubmit}
          onChange={state.updatePreview}
          className="min-w-0 space-y-4"
          aria-describedby={summary ? 'settings-error' : undefined}
        >
          <input type="hidden" name="_baseline" value={loaderData.baseline} />
          {/* After a save the fields start again from the saved (normalised) values. */}
          <div key={loaderData.baseline} className="space-y-4">
            <div className="admin-card flex justify-end p-4 lg:sticky lg:top-0 lg:z-10">
              <SubmitButton busy={saving} busyLabel="Salvando..." className="admin-button-primary">
                Salvar configurações
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
                <SettingsSections
                  tab={tab}
                  values={values}
                  errors={errors}
                  integrations={integrations}
                  form={form}
                  preview={state.preview}
                />
              </div>
            </div>
          </div>
        </Form>
        <div className="min-w-0 xl:sticky xl:top-4">
          <SettingsPreview settings={state.preview} accepts={integrations.accepts} />
        </div>
      </div>
    </div>
  );
}
