import { useRef } from 'react';

import { ADMIN_FORM } from './form-look';
import { FormField, fieldId as kitFieldId, type ControlProps } from '~/components/ui/form';
import { fieldMaxLength, type FieldSpec } from '~/modules/settings/index.admin';

const HEX6 = /^#[0-9a-f]{6}$/i;
const HEX3 = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i;

/** The colour picker's value for a typed hex (it only takes #rrggbb), or null while half typed. */
function pickerValue(text: string): string | null {
  const value = text.trim();
  if (HEX6.test(value)) return value.toLowerCase();
  const short = HEX3.exec(value);
  return short
    ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase()
    : null;
}

export interface SettingsFieldProps {
  spec: FieldSpec;
  /** The value to start from, as the form shows it. */
  value: string;
  error?: string;
  /** For a colour that follows the primary one while empty: the colour it has now. */
  automatic?: string;
  /** The error of the file input beside an image's address. */
  uploadError?: string;
}

export function fieldId(key: string): string {
  return kitFieldId('setting', key);
}

/**
 * One setting in the form, named by its key. Uncontrolled: what staff type stays in the DOM
 * (also on hidden tabs), and the form reads it all when it is sent.
 */
export function SettingsField(props: SettingsFieldProps) {
  const { spec, uploadError } = props;
  if (!spec.upload) return <SettingField {...props} />;
  // An image: its address, or a file sent with the form (which then replaces the address).
  return (
    <div className="space-y-2">
      <SettingField {...props} />
      <FormField
        look={ADMIN_FORM}
        idPrefix="setting"
        name={spec.upload}
        label={`Enviar arquivo: ${spec.label}`}
        error={uploadError}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
          />
        )}
      </FormField>
    </div>
  );
}

function SettingField({ spec, value, error, automatic }: SettingsFieldProps) {
  if (spec.kind === 'checkbox') {
    return (
      <FormField
        look={ADMIN_FORM}
        layout="check"
        idPrefix="setting"
        name={spec.key}
        label={spec.label}
        hint={spec.hint}
        error={error}
      >
        {(control) => (
          <input
            {...control}
            type="checkbox"
            defaultChecked={value === 'on'}
            className="mt-0.5 h-5 w-5 shrink-0 accent-blue-700"
          />
        )}
      </FormField>
    );
  }
  return (
    <FormField
      look={ADMIN_FORM}
      idPrefix="setting"
      name={spec.key}
      label={
        <>
          {spec.label}
          {spec.kind === 'money' ? <span className="sr-only"> (em reais)</span> : null}
        </>
      }
      hint={spec.hint}
      error={error}
    >
      {(control) => (
        <FieldInput spec={spec} value={value} control={control} automatic={automatic} />
      )}
    </FormField>
  );
}

function FieldInput({
  spec,
  value,
  control,
  automatic,
}: {
  spec: FieldSpec;
  value: string;
  control: ControlProps;
  automatic?: string;
}) {
  const common = {
    ...control,
    defaultValue: value,
    placeholder: spec.placeholder,
    maxLength: fieldMaxLength(spec.key),
  };
  switch (spec.kind) {
    case 'textarea':
      return <textarea rows={3} className="admin-input" {...common} />;
    case 'markdown':
    case 'script':
      return (
        <textarea
          rows={spec.kind === 'markdown' ? 12 : 6}
          spellCheck={spec.kind === 'markdown'}
          className="admin-input font-mono text-xs"
          {...common}
        />
      );
    case 'select':
      return (
        <select className="admin-input" {...common}>
          {spec.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
    case 'color':
      return <ColorInput label={spec.label} common={common} automatic={automatic} />;
    case 'money':
      return (
        <div className="flex">
          <span
            aria-hidden="true"
            className="flex items-center rounded-l-md border border-r-0 border-slate-400 bg-slate-100 px-3 text-sm text-slate-700"
          >
            R$
          </span>
          <input
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className="admin-input rounded-l-none"
            {...common}
          />
        </div>
      );
    case 'integer':
      return (
        <input type="number" inputMode="numeric" step="1" className="admin-input" {...common} />
      );
    case 'decimal':
      return (
        <input
          type="number"
          inputMode="decimal"
          step={spec.step ?? 'any'}
          className="admin-input"
          {...common}
        />
      );
    case 'url':
      return (
        <input type="url" inputMode="url" autoComplete="off" className="admin-input" {...common} />
      );
    case 'email':
      return <input type="email" autoComplete="off" className="admin-input" {...common} />;
    case 'tel':
      return <input type="tel" autoComplete="off" className="admin-input" {...common} />;
    default:
      return <input type="text" autoComplete="off" className="admin-input" {...common} />;
  }
}

/**
 * A hex text box (the value sent: it takes #rgb and #rrggbbaa too, and shows what is wrong) with
 * a colour picker beside it; each follows the other as staff use either.
 */
function ColorInput({
  label,
  common,
  automatic,
}: {
  label: string;
  common: React.InputHTMLAttributes<HTMLInputElement> & { id: string; defaultValue: string };
  automatic?: string;
}) {
  const text = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="flex gap-2">
      <input
        ref={text}
        type="text"
        autoComplete="off"
        spellCheck={false}
        className="admin-input font-mono"
        onInput={(event) => {
          const next = pickerValue(event.currentTarget.value);
          if (next && picker.current) picker.current.value = next;
        }}
        {...common}
        placeholder={automatic ? `Automática: ${automatic}` : common.placeholder}
      />
      <input
        ref={picker}
        type="color"
        aria-label={`Escolher a cor: ${label}`}
        defaultValue={pickerValue(common.defaultValue) ?? automatic ?? '#000000'}
        // The text box is the field; this only writes into it (the form hears the input event).
        onInput={(event) => {
          if (text.current) text.current.value = event.currentTarget.value;
        }}
        className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-slate-400 bg-white p-1"
      />
    </div>
  );
}
