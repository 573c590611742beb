import { useRef } from 'react';
import { useFetcher } from 'react-router';
import type { z } from 'zod';

import { changePasswordSchema, createAdminSchema } from '~/modules/auth';

import { ADMIN_FORM } from './form-look';
import { FormField, SubmitButton } from '~/components/ui/form';
import { useToastFrom } from './toaster';
import { useEachAnswer } from '~/lib/use-each-answer';
import { useFormCheck } from '~/lib/use-form-check';

type Reply =
  | {
      toast?: { kind: string };
      fieldErrors?: Record<string, string>;
      values?: Record<string, string>;
    }
  | undefined;

interface FieldSpec {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autoComplete: string;
  hint?: string;
}

/**
 * A card with one form of the Usuários screen, checked in the browser with the same schema as
 * the server. It keeps what was typed until the server accepts it, then empties itself.
 */
function UserFormCard({
  title,
  intent,
  schema,
  fields,
  submitLabel,
  busyLabel,
}: {
  title: string;
  intent: string;
  schema: z.ZodType;
  fields: FieldSpec[];
  submitLabel: string;
  busyLabel: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<Reply>();
  useToastFrom(fetcher.data);
  const { errors: clientErrors, check } = useFormCheck(schema);
  const errors = clientErrors ?? fetcher.data?.fieldErrors ?? {};
  const busy = fetcher.state !== 'idle';

  useEachAnswer(fetcher.data, (answer) => {
    if (answer.toast?.kind === 'success') {
      form.current?.reset();
      return;
    }
    // A refused password is typed again; the field the server names gets the focus.
    const first = Object.keys(answer.fieldErrors ?? {})[0];
    if (first) (form.current?.elements.namedItem(first) as HTMLElement | null)?.focus();
  });

  return (
    <section className="admin-card" aria-labelledby={`${intent}-title`}>
      <h2 id={`${intent}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      <fetcher.Form ref={form} method="post" noValidate className="mt-4 space-y-4" onSubmit={check}>
        <input type="hidden" name="intent" value={intent} />
        {fields.map((field) => (
          <FormField
            look={ADMIN_FORM}
            key={field.name}
            idPrefix={intent}
            name={field.name}
            label={field.label}
            hint={field.hint}
            error={errors[field.name]}
          >
            {(control) => (
              <input
                {...control}
                type={field.type}
                required
                autoComplete={field.autoComplete}
                maxLength={field.type === 'password' ? 128 : 254}
                className="admin-input"
              />
            )}
          </FormField>
        ))}
        <SubmitButton
          busy={busy}
          busyLabel={busyLabel}
          className="admin-button-primary w-full sm:w-auto"
        >
          {submitLabel}
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}

export function UserCreateForm() {
  return (
    <UserFormCard
      title="Novo administrador"
      intent="create"
      schema={createAdminSchema}
      submitLabel="Criar administrador"
      busyLabel="Criando..."
      fields={[
        { name: 'fullName', label: 'Nome', type: 'text', autoComplete: 'off' },
        { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'off' },
        {
          name: 'password',
          label: 'Senha inicial',
          type: 'password',
          autoComplete: 'new-password',
          hint: 'Entre 8 e 128 caracteres. Passe-a à pessoa por um canal seguro; ela pode trocá-la depois, nesta tela.',
        },
      ]}
    />
  );
}

export function UserPasswordForm() {
  return (
    <UserFormCard
      title="Alterar minha senha"
      intent="change-password"
      schema={changePasswordSchema}
      submitLabel="Alterar senha"
      busyLabel="Salvando..."
      fields={[
        {
          name: 'currentPassword',
          label: 'Senha atual',
          type: 'password',
          autoComplete: 'current-password',
        },
        {
          name: 'newPassword',
          label: 'Nova senha',
          type: 'password',
          autoComplete: 'new-password',
          hint: 'Entre 8 e 128 caracteres. Seus outros acessos abertos serão encerrados.',
        },
        {
          name: 'confirmPassword',
          label: 'Confirmar nova senha',
          type: 'password',
          autoComplete: 'new-password',
        },
      ]}
    />
  );
}
