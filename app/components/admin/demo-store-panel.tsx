import { ConfirmDialog } from './confirm-dialog';

/**
 * On the dashboard of a demo store: what the demo is, and 'Começar loja real', which asks first
 * and then deletes the sample data for good (ADR 018).
 */
export function DemoStorePanel() {
  return (
    <section
      aria-labelledby="loja-demonstracao"
      className="admin-card border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="loja-demonstracao" className="text-lg font-semibold">
        Loja de demonstração
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Os produtos, as avaliações e os dados da empresa são exemplos, os pagamentos são simulados e
        os buscadores não indexam a loja. Quando quiser vender de verdade, comece a loja real.
      </p>
      <div className="mt-3">
        <ConfirmDialog
          title="Começar loja real?"
          message={
            <>
              <p>
                Serão excluídos para sempre os produtos, as categorias e as avaliações de exemplo,
                todos os pedidos (na demonstração todos são de teste), os dados da empresa de
                exemplo e as imagens que só os produtos de exemplo usavam.
              </p>
              <p className="mt-2">
                Seus próprios produtos, as outras configurações e os administradores continuam. Os
                pagamentos simulados param: o painel passa a listar o que falta para vender, a
                começar pelo provedor de pagamento. Não há como voltar à demonstração.
              </p>
            </>
          }
          confirmLabel="Começar loja real"
          busyLabel="Começando..."
          dismissLabel="Voltar"
          triggerLabel="Começar loja real"
          fields={{ intent: 'go-live' }}
        />
      </div>
    </section>
  );
}
