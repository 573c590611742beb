/**
 * The one forms kit, admin and storefront alike: a labelled field, the summary of a refused
 * form and the submit button. The two sides look different, so each piece takes its side's
 * `look` (ADMIN_FORM, STORE_FORM); what they share is the markup screen readers rely on.
 */

/**
 * How one side draws its forms: the admin's look lives in components/admin, so no shopper's
 * bundle carries its classes.
 */
export interface FormLook {
  /** The stacked field's wrapper. */
  field?: string;
  label: string;
  hint: string;
  error: string;
  /** A checkbox's label, beside it (`layout="check"`). */
  checkLabel?: string;
  /** A hint read before the control (`hintFirst`). */
  hintAbove?: string;
  summary?: string;
  summaryMessage?: string;
  summaryLinks?: string;
}

/**
 * The storefront's look (the theme's colours). It lives here rather than in components/store:
 * a module of its own would be one more chunk for every shopper.
 */
export const STORE_FORM: FormLook = {
  field: 'flex flex-col gap-1',
  label: 'text-sm font-semibold',
  hint: 'text-sm',
  error: 'text-sm font-semibold text-danger',
  summary: 'flex flex-col items-start gap-3 rounded-card border-l-4 border-danger bg-card p-4',
  summaryMessage: 'font-semibold',
  summaryLinks: 'list-disc pl-5 text-sm underline',
};

/** The id of a field's control: unique on the page, since several forms may share a name. */
export function fieldId(idPrefix: string, name: string): string {
  return `${idPrefix}-${name}`;
}

/** What a form control needs to be named, labelled and tied to its hint and error. */
export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * One labelled field: the label, the control (drawn by `children` with the props it must carry,
 * so it can be an input, a select, a textarea or a checkbox), a hint and the field's error, read
 * by screen readers with the control. `layout="check"` puts a checkbox before its label;
 * `hintFirst` puts the hint between the label and the control (what to type, read before typing).
 */
export function FormField({
  look,
  idPrefix,
  name,
  label,
  hint,
  error,
  layout = 'stacked',
  hintFirst = false,
  announce = false,
  className,
  children,
}: {
  look: FormLook;
  idPrefix: string;
  name: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: string;
  layout?: 'stacked' | 'check';
  hintFirst?: boolean;
  /** The error is announced as it appears (a form with no summary, answered in place). */
  announce?: boolean;
  /** The wrapper's classes, instead of the look's. */
  className?: string;
  children: (control: ControlProps) => React.ReactNode;
}) {
  const id = fieldId(idPrefix, name);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  const control = children({
    id,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described.length ? described.join(' ') : undefined,
  });
  const hintNote = hint ? (
    <p id={`${id}-hint`} className={hintFirst ? look.hintAbove : look.hint}>
      {hint}
    </p>
  ) : null;
  const notes = (
    <>
      {hintFirst ? null : hintNote}
      {error ? (
        <p id={`${id}-error`} role={announce ? 'alert' : undefined} className={look.error}>
          {error}
        </p>
      ) : null}
    </>
  );
  if (layout === 'check') {
    return (
      <div className={className ?? 'flex items-start gap-3'}>
        {control}
        <div>
          <label htmlFor={id} className={look.checkLabel}>
            {label}
          </label>
          {notes}
        </div>
      </div>
    );
  }
  return (
    <div className={(className ?? look.field) || undefined}>
      <label htmlFor={id} className={look.label}>
        {label}
      </label>
      {hintFirst ? hintNote : null}
      {control}
      {notes}
    </div>
  );
}

/**
 * A refused form's summary: its message, announced as it appears (the alert holds only the
 * message and `children`, such as a way out), then a link to each wrong field that has a label
 * in `labels`. The links name the field, not the error, which is already written beside it.
 */
export function ErrorSummary({
  look,
  id,
  message,
  errors = {},
  labels = {},
  idPrefix = '',
  className,
  children,
}: {
  look: FormLook;
  /** The message's id, for the form's aria-describedby. */
  id?: string;
  message: string;
  errors?: Partial<Record<string, string>>;
  labels?: Partial<Record<string, string>>;
  idPrefix?: string;
  /** The box's classes, instead of the look's. */
  className?: string;
  children?: React.ReactNode;
}) {
  const wrong = Object.keys(errors).filter((name) => errors[name] && labels[name]);
  return (
    <div className={className ?? look.summary}>
      <div role="alert" className="flex flex-col items-start gap-3">
        <p id={id} className={look.summaryMessage}>
          {message}
        </p>
        {children}
      </div>
      {wrong.length ? (
        <ul className={look.summaryLinks}>
          {wrong.map((name) => {
            const target = fieldId(idPrefix, name);
            return (
              <li key={name}>
                <a
                  href={`#${target}`}
                  // Focus, not only scroll: the field is where the shopper types next.
                  onClick={(event) => {
                    const field = document.getElementById(target);
                    if (!field) return;
                    event.preventDefault();
                    field.focus();
                  }}
                >
                  {labels[name]}
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/** The form's submit button: disabled and saying `busyLabel` while the form is being sent. */
export function SubmitButton({
  busy,
  busyLabel,
  disabled = false,
  className,
  name,
  value,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  className: string;
  /** A form with several buttons: which one was pressed is posted as `name=value`. */
  name?: string;
  value?: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      className={className}
      disabled={busy || disabled}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
