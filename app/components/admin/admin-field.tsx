/** What a form control needs to be named, labelled and tied to its hint and error. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * One labelled field of an admin form: the label, the control (drawn by `children` with the
 * props it must carry), a hint and the field's error, read by screen readers with the control.
 */
export function AdminField({
  idPrefix,
  name,
  label,
  hint,
  error,
  children,
}: {
  /** Makes the control's id unique on the page (several forms may have a field of this name). */
  idPrefix: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
  children: (control: ControlProps) => React.ReactNode;
}) {
  const id = `${idPrefix}-${name}`;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return (
    <div>
      <label htmlFor={id} className="admin-label">
        {label}
      </label>
      {children({
        id,
        name,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described.length ? described.join(' ') : undefined,
      })}
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
