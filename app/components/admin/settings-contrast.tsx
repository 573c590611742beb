import {
  contrastWarnings,
  formatRatio,
  MIN_CONTRAST,
  type StoreSettings,
} from '~/modules/settings';
import { SETTINGS_FORM_FIELDS } from '~/modules/settings/index.admin';

const LABELS = new Map<string, string>(SETTINGS_FORM_FIELDS.map((spec) => [spec.key, spec.label]));

/**
 * The colour pairs that read below WCAG AA with the colours in the form (as staff type, with
 * JavaScript; the saved ones without). Nothing is refused: the store's choice, told plainly.
 */
export function ContrastWarnings({ settings }: { settings: StoreSettings }) {
  const warnings = contrastWarnings(settings);
  return (
    <div aria-live="polite" data-testid="contrast-warnings">
      {warnings.length === 0 ? null : (
        <div className="rounded-md border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950">
          <p className="font-semibold">
            {warnings.length === 1
              ? 'Uma combinação de cores fica difícil de ler'
              : `${warnings.length} combinações de cores ficam difíceis de ler`}
          </p>
          <p className="mt-1">
            O contraste mínimo recomendado para texto é de {formatRatio(MIN_CONTRAST)}. Escolha
            cores mais diferentes entre si ou deixe em branco os campos que podem seguir a cor
            primária.
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {warnings.map(({ text, on, ratio }) => (
              <li key={`${text}-${on}`}>
                {LABELS.get(text) ?? text} sobre {LABELS.get(on) ?? on}: {formatRatio(ratio)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
