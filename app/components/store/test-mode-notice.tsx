/** Shown wherever the sandbox provider stands in for real payments. */
export function TestModeNotice() {
  return (
    <p
      role="note"
      className="mb-6 rounded-card border-2 border-dashed border-accent bg-card p-3 text-center font-semibold"
    >
      Modo de teste: nenhum pagamento real é feito nesta loja.
    </p>
  );
}
