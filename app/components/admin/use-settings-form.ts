import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigation } from 'react-router';

import { fieldId } from '~/components/admin/settings-field';
import { useToastFrom } from '~/components/admin/toaster';
import { useFormCheck } from '~/lib/use-form-check';
import type { Toast } from '~/lib/toast';
import type { StoreSettings } from '~/modules/settings';
import {
  previewSettings,
  SETTINGS_FORM_FIELDS,
  settingsFormSchema,
  settingsFormValues,
  tabOfField,
  type SettingsTabId,
} from '~/modules/settings/index.admin';

export const SETTINGS_NOT_SAVED = 'Erro ao salvar configurações';

/** What the settings action answers when it does not redirect. */
export type SettingsReply = {
  toast: Toast;
  error?: string;
  fieldErrors?: Record<string, string>;
  /** What was sent, to fill the form again when the page is shown without JavaScript. */
  values?: Record<string, string>;
};

/** The field that should get focus after a refused save: the first wrong one, in page order. */
function firstWrongField(errors: Record<string, string>): string | null {
  for (const spec of SETTINGS_FORM_FIELDS) {
    if (errors[spec.key]) return spec.key;
    if (spec.upload && errors[spec.upload]) return spec.upload;
  }
  return null;
}

/**
 * The settings screen's state: the open tab, the browser check before sending, the focus on the
 * first wrong field after a refused save, and the preview's unsaved settings.
 */
export function useSettingsForm({
  settings,
  initialTab,
  reply,
}: {
  settings: StoreSettings;
  initialTab: SettingsTabId;
  reply: SettingsReply | undefined;
}) {
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const saving =
    navigation.state !== 'idle' &&
    navigation.formMethod === 'POST' &&
    navigation.formAction?.split('?')[0] === '/admin/settings';

  const firstWrong = firstWrongField(reply?.fieldErrors ?? {});
  const [tab, setTab] = useState<SettingsTabId>(
    () => (firstWrong && tabOfField(firstWrong)) || initialTab,
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
      toast: {
        id: `settings-client-${clientToasts.current}`,
        kind: 'error',
        message: SETTINGS_NOT_SAVED,
      },
    });
  };

  const summary =
    Object.keys(errors).length > 0
      ? 'Confira os campos marcados: nada foi salvo.'
      : (reply?.error ?? null);

  return {
    form,
    saving,
    tab,
    setTab,
    errors,
    values,
    tabsWithErrors,
    summary,
    preview,
    updatePreview,
    onSubmit,
  };
}
