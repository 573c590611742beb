import { useState } from 'react';

import { fieldId } from '~/components/ui/form';
import {
  combinationKey,
  generateVariants,
  VARIANT_LIMITS,
  type ProductOption,
  type VariantCell,
  type VariantDraft,
} from '~/modules/catalog/index.admin';

const GRID_CELLS: { cell: Exclude<VariantCell, 'image'>; label: string; numeric: boolean }[] = [
  { cell: 'sku', label: 'SKU', numeric: false },
  { cell: 'price', label: 'Preço (R$)', numeric: true },
  { cell: 'compareAtPrice', label: 'Preço de (R$)', numeric: true },
  { cell: 'stock', label: 'Estoque', numeric: true },
  { cell: 'weight', label: 'Peso (g)', numeric: true },
  { cell: 'length', label: 'Comprimento (mm)', numeric: true },
  { cell: 'width', label: 'Largura (mm)', numeric: true },
  { cell: 'height', label: 'Altura (mm)', numeric: true },
  { cell: 'gtin', label: 'GTIN', numeric: true },
  { cell: 'mpn', label: 'MPN', numeric: false },
];

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

/** An option whose values are colours: named 'Cor' or with a swatch already. */
const isColour = (option: ProductOption) =>
  fold(option.name) === 'cor' || option.values.some((value) => value.color);

function ErrorNote({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="mt-1 text-xs text-red-700">
      {error}
    </p>
  ) : null;
}

/**
 * The options ('Tamanho', 'Cor') with their ordered values, 'Gerar variantes', and the grid where
 * many variants' SKU, prices, stock and measures are edited for one save. Both travel as JSON in
 * the hidden `options` and `variants` fields; each cell's mistake comes back under
 * `variants.<row>.<cell>`.
 */
export function ProductVariants({
  idPrefix,
  initialOptions,
  initialVariants,
  images,
  errors,
  onOptionsChange,
}: {
  idPrefix: string;
  initialOptions: ProductOption[];
  initialVariants: VariantDraft[];
  /** The product's saved pictures, which a variant or a colour may take. */
  images: string[];
  errors: Record<string, string>;
  onOptionsChange: (count: number) => void;
}) {
  const [options, setOptions] = useState<ProductOption[]>(initialOptions);
  const [drafts, setDrafts] = useState<VariantDraft[]>(
    initialOptions.length > 0 ? initialVariants : initialVariants.slice(0, 1),
  );

  const changeOptions = (next: ProductOption[]) => {
    setOptions(next);
    onOptionsChange(next.length);
  };
  const setOption = (index: number, option: ProductOption) =>
    changeOptions(options.map((current, at) => (at === index ? option : current)));

  const renameValue = (optionIndex: number, valueIndex: number, name: string) => {
    const option = options[optionIndex]!;
    const old = option.values[valueIndex]!.name;
    setOption(optionIndex, {
      ...option,
      values: option.values.map((value, at) => (at === valueIndex ? { ...value, name } : value)),
    });
    setDrafts((current) =>
      current.map((draft) =>
        draft.values[optionIndex] === old
          ? { ...draft, values: draft.values.map((v, at) => (at === optionIndex ? name : v)) }
          : draft,
      ),
    );
  };

  // A removed value takes its variants with it (orders keep their copies).
  const removeValue = (optionIndex: number, valueIndex: number) => {
    const option = options[optionIndex]!;
    const removed = option.values[valueIndex]!.name;
    setOption(optionIndex, {
      ...option,
      values: option.values.filter((_, at) => at !== valueIndex),
    });
    setDrafts((current) => current.filter((draft) => draft.values[optionIndex] !== removed));
  };

  // Without the option, variants that differed only by it become one: the first is kept.
  const removeOption = (optionIndex: number) => {
    changeOptions(options.filter((_, at) => at !== optionIndex));
    setDrafts((current) => {
      const seen = new Set<string>();
      return current.flatMap((draft) => {
        const values = draft.values.filter((_, at) => at !== optionIndex);
        const key = combinationKey(values);
        if (seen.has(key)) return [];
        seen.add(key);
        return [{ ...draft, values }];
      });
    });
  };

  const setCell = (row: number, cell: VariantCell, value: string) =>
    setDrafts((current) =>
      current.map((draft, at) => (at === row ? { ...draft, [cell]: value } : draft)),
    );

  const setColourImage = (optionIndex: number, value: string, image: string) =>
    setDrafts((current) =>
      current.map((draft) => (draft.values[optionIndex] === value ? { ...draft, image } : draft)),
    );

  const id = (name: string) => fieldId(idPrefix, name);
  const cellProps = (name: string) => ({
    id: id(name),
    'data-field': name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id(name)}-error` : undefined,
  });

  return (
    <fieldset className="min-w-0 space-y-4 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">Opções e variantes</legend>
      <input type="hidden" name="options" value={JSON.stringify(options)} />
      <input
        type="hidden"
        name="variants"
        value={JSON.stringify(options.length > 0 ? drafts : [])}
      />
      <p className="text-xs text-slate-600">
        Tamanhos, cores ou modelos: cada combinação vira uma variante com estoque, SKU e preço
        próprios.
      </p>
      <ErrorNote id={`${id('options')}-error`} error={errors.options} />

      {options.map((option, optionIndex) => {
        const colour = isColour(option);
        const at = `options.${optionIndex}`;
        return (
          <div key={optionIndex} className="space-y-2 rounded-md bg-slate-50 p-3">
            <div className="flex flex-wrap items-end gap-2">
              <div className="min-w-0 flex-1">
                <label htmlFor={id(`${at}.name`)} className="admin-label">
                  Nome da opção {optionIndex + 1}
                </label>
                <input
                  {...cellProps(`${at}.name`)}
                  value={option.name}
                  maxLength={VARIANT_LIMITS.name}
                  placeholder="Tamanho"
                  onChange={(event) =>
                    setOption(optionIndex, { ...option, name: event.target.value })
                  }
                  className="admin-input"
                />
                <ErrorNote id={`${id(`${at}.name`)}-error`} error={errors[`${at}.name`]} />
              </div>
              <button
                type="button"
                onClick={() => removeOption(optionIndex)}
                className="admin-button-secondary"
              >
                Remover opção
              </button>
            </div>
            <ul className="space-y-2" aria-label={`Valores de ${option.name || 'opção'}`}>
              {option.values.map((value, valueIndex) => {
                const label = `Valor ${valueIndex + 1} de ${option.name || `opção ${optionIndex + 1}`}`;
                const valueId = id(`${at}.values.${valueIndex}`);
                return (
                  <li key={valueIndex} className="flex flex-wrap items-center gap-2">
                    <label htmlFor={valueId} className="sr-only">
                      {label}
                    </label>
                    <input
                      id={valueId}
                      value={value.name}
                      maxLength={VARIANT_LIMITS.name}
                      onChange={(event) => renameValue(optionIndex, valueIndex, event.target.value)}
                      className="admin-input w-32 min-w-0 flex-1"
                    />
                    {colour ? (
                      <>
                        <label htmlFor={`${valueId}-color`} className="sr-only">
                          Cor de {value.name || label}
                        </label>
                        <input
                          id={`${valueId}-color`}
                          type="color"
                          value={value.color ?? '#000000'}
                          onChange={(event) =>
                            setOption(optionIndex, {
                              ...option,
                              values: option.values.map((v, i) =>
                                i === valueIndex ? { ...v, color: event.target.value } : v,
                              ),
                            })
                          }
                          className="h-9 w-11 rounded border border-slate-300"
                        />
                        {images.length > 0 ? (
                          <>
                            <label htmlFor={`${valueId}-image`} className="sr-only">
                              Foto das variantes {value.name}
                            </label>
                            <select
                              id={`${valueId}-image`}
                              defaultValue=""
                              onChange={(event) =>
                                setColourImage(optionIndex, value.name, event.target.value)
                              }
                              className="admin-input w-40"
                            >
                              <option value="">Foto: a do produto</option>
                              {images.map((url, index) => (
                                <option key={url} value={url}>
                                  Foto {index + 1}
                                </option>
                              ))}
                            </select>
                          </>
                        ) : null}
                      </>
                    ) : null}
                    <button
                      type="button"
                      onClick={() => removeValue(optionIndex, valueIndex)}
                      className="admin-button-secondary"
                      aria-label={`Remover ${value.name || label}`}
                    >
                      Remover
                    </button>
                  </li>
                );
              })}
            </ul>
            <ErrorNote id={`${id(`${at}.values`)}-error`} error={errors[`${at}.values`]} />
            {option.values.length < VARIANT_LIMITS.values ? (
              <button
                type="button"
                onClick={() =>
                  setOption(optionIndex, { ...option, values: [...option.values, { name: '' }] })
                }
                className="text-sm font-medium text-blue-700 underline"
              >
                Adicionar valor
              </button>
            ) : null}
          </div>
        );
      })}

      <div className="flex flex-wrap gap-2">
        {options.length < VARIANT_LIMITS.options ? (
          <button
            type="button"
            onClick={() => changeOptions([...options, { name: '', values: [{ name: '' }] }])}
            className="admin-button-secondary"
          >
            Adicionar opção
          </button>
        ) : null}
        {options.length > 0 ? (
          <button
            type="button"
            onClick={() => setDrafts((current) => generateVariants(options, current))}
            className="admin-button-secondary"
          >
            Gerar variantes
          </button>
        ) : null}
      </div>
      <ErrorNote id={`${id('variants')}-error`} error={errors.variants} />

      {options.length > 0 && drafts.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="min-w-full text-sm">
            <caption className="sr-only">Variantes</caption>
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col" className="p-1">
                  Variante
                </th>
                {GRID_CELLS.map(({ cell, label }) => (
                  <th key={cell} scope="col" className="p-1 whitespace-nowrap">
                    {label}
                  </th>
                ))}
                {images.length > 0 ? (
                  <th scope="col" className="p-1">
                    Foto
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {drafts.map((draft, row) => {
                const name = draft.values.join(' / ');
                const rowError = errors[`variants.${row}.values`];
                return (
                  <tr key={row} className="border-t border-slate-200">
                    <th scope="row" className="p-1 text-left font-medium whitespace-nowrap">
                      {name}
                      <ErrorNote id={`${id(`variants.${row}.values`)}-error`} error={rowError} />
                    </th>
                    {GRID_CELLS.map(({ cell, label, numeric }) => {
                      const field = `variants.${row}.${cell}`;
                      return (
                        <td key={cell} className="p-1 align-top">
                          <input
                            {...cellProps(field)}
                            aria-label={`${label} de ${name}`}
                            value={draft[cell]}
                            inputMode={
                              numeric ? (cell.includes('rice') ? 'decimal' : 'numeric') : undefined
                            }
                            placeholder={
                              cell === 'price'
                                ? 'Do produto'
                                : cell === 'sku'
                                  ? 'Automático'
                                  : undefined
                            }
                            autoComplete="off"
                            onChange={(event) => setCell(row, cell, event.target.value)}
                            className={`admin-input ${cell === 'sku' || cell === 'gtin' || cell === 'mpn' ? 'w-36' : 'w-24'}`}
                          />
                          <ErrorNote id={`${id(field)}-error`} error={errors[field]} />
                        </td>
                      );
                    })}
                    {images.length > 0 ? (
                      <td className="p-1 align-top">
                        <select
                          {...cellProps(`variants.${row}.image`)}
                          aria-label={`Foto de ${name}`}
                          value={draft.image}
                          onChange={(event) => setCell(row, 'image', event.target.value)}
                          className="admin-input w-32"
                        >
                          <option value="">A do produto</option>
                          {draft.image && !images.includes(draft.image) ? (
                            <option value={draft.image}>Foto atual</option>
                          ) : null}
                          {images.map((url, index) => (
                            <option key={url} value={url}>
                              Foto {index + 1}
                            </option>
                          ))}
                        </select>
                        <ErrorNote
                          id={`${id(`variants.${row}.image`)}-error`}
                          error={errors[`variants.${row}.image`]}
                        />
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </fieldset>
  );
}
