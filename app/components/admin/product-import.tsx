import { Form, useNavigation } from 'react-router';

import { ADMIN_FORM } from './form-look';
import { FormField, SubmitButton } from '~/components/ui/form';
import {
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_MESSAGES,
  type ProductImportResult,
} from '~/modules/catalog/index.admin';
import { countOf } from '~/lib/plural';

function ImportReport({ result }: { result: ProductImportResult }) {
  if (result.ok) {
    return (
      <div role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
        <p className="font-semibold">
          {PRODUCT_CSV_MESSAGES.imported(result.created + result.updated)}
        </p>
        <p>
          {countOf(result.created, 'novo', 'novos')},{' '}
          {countOf(result.updated, 'atualizado', 'atualizados')}.
          {result.categoriesCreated.length > 0
            ? ` Categorias criadas: ${result.categoriesCreated.join(', ')}.`
            : ''}
        </p>
      </div>
    );
  }
  return (
    <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
      <p className="font-semibold">{result.error}</p>
      {result.problems.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {result.problems.map((problem, index) => (
            <li key={index}>
              Linha {problem.row}
              {problem.column ? ` (${problem.column})` : ''}: {problem.message}
            </li>
          ))}
          {result.moreProblems > 0 ? (
            <li>… e mais {countOf(result.moreProblems, 'problema', 'problemas')}.</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * Import from a spreadsheet: a plain multipart form (works before JavaScript), answered on the
 * same page with the report — every bad row, or how many products were imported.
 */
export function ProductImport({
  reply,
}: {
  reply?: { import?: ProductImportResult; toast: { message: string } };
}) {
  const navigation = useNavigation();
  const importing =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'import';
  return (
    <details className="admin-card" open={reply?.import ? true : undefined}>
      <summary className="cursor-pointer font-medium text-slate-900">
        Importar produtos de uma planilha (CSV)
      </summary>
      <div className="mt-3 space-y-3 text-sm text-slate-700">
        <p>
          Use o arquivo de <strong>Exportar CSV</strong> como modelo: colunas{' '}
          {PRODUCT_CSV_COLUMNS.map((column) => column.header).join(', ')}, separadas por ponto e
          vírgula; preço como 1234,56; imagens separadas por |. Linhas com um id existente atualizam
          o produto; sem id, criam um novo. Categorias que não existem são criadas. Se alguma linha
          tiver problema, nada é importado.
        </p>
        <Form
          method="post"
          encType="multipart/form-data"
          className="flex flex-wrap items-end gap-2"
        >
          <input type="hidden" name="intent" value="import" />
          <FormField
            look={ADMIN_FORM}
            idPrefix="product-import"
            name="file"
            label="Arquivo CSV (até 5 MB)"
            className="min-w-0 flex-1"
          >
            {(control) => (
              <input
                {...control}
                type="file"
                accept=".csv,text/csv"
                required
                className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-100"
              />
            )}
          </FormField>
          <SubmitButton busy={importing} busyLabel="Importando..." className="admin-button-primary">
            Importar
          </SubmitButton>
        </Form>
        {reply?.import ? <ImportReport result={reply.import} /> : null}
      </div>
    </details>
  );
}
