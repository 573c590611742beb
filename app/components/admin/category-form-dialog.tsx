import {
  CATEGORY_DESCRIPTION_MAX,
  CATEGORY_NAME_MAX,
  categoryFormSchema,
} from '~/modules/catalog/index.admin';

import { ADMIN_FORM } from './form-look';
import { FormField } from '~/components/ui/form';
import { FormDialog } from './form-dialog';

/** 'Adicionar categoria' or 'Editar': a button opening the category's form. */
export function CategoryFormDialog(
  props:
    | { mode: 'create'; id: string }
    | { mode: 'edit'; id: string; name: string; description: string | null },
) {
  const editing = props.mode === 'edit';
  return (
    <FormDialog
      schema={categoryFormSchema}
      title={editing ? 'Editar categoria' : 'Adicionar categoria'}
      openLabel={editing ? 'Editar' : 'Adicionar categoria'}
      openClassName={editing ? 'admin-button-secondary' : 'admin-button-primary'}
      openAriaLabel={editing ? `Editar categoria ${props.name}` : undefined}
      submitLabel="Salvar"
      hidden={{ intent: editing ? 'update' : 'create', id: props.id }}
      resetOnClose={editing}
    >
      {({ idPrefix, errors }) => (
        <>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="name"
            label="Nome"
            error={errors.name}
          >
            {(control) => (
              <input
                {...control}
                required
                maxLength={CATEGORY_NAME_MAX}
                defaultValue={editing ? props.name : ''}
                className="admin-input"
              />
            )}
          </FormField>
          <FormField
            look={ADMIN_FORM}
            idPrefix={idPrefix}
            name="description"
            label="Descrição (opcional)"
            error={errors.description}
          >
            {(control) => (
              <textarea
                {...control}
                rows={3}
                maxLength={CATEGORY_DESCRIPTION_MAX}
                defaultValue={editing ? (props.description ?? '') : ''}
                className="admin-input"
              />
            )}
          </FormField>
        </>
      )}
    </FormDialog>
  );
}
