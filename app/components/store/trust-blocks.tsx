import { ShieldIcon, StarIcon, TruckIcon } from '~/components/ui/icons';
import { freeShippingFromCents } from '~/modules/pricing';
import type { StorefrontSettings } from '~/modules/settings';

/** The home page's three reasons to buy here, under the featured products. */
export function TrustBlocks({ settings }: { settings: StorefrontSettings }) {
  const blocks = [
    {
      icon: <StarIcon />,
      title: 'Qualidade garantida',
      text: 'Produtos selecionados e conferidos antes de cada envio.',
    },
    {
      icon: <TruckIcon />,
      title: `Entrega em até ${settings.estimated_delivery_days} dias úteis`,
      text:
        freeShippingFromCents(settings) === 0
          ? 'Frete grátis para todo o Brasil, após a confirmação do pagamento.'
          : 'Enviamos para todo o Brasil, após a confirmação do pagamento.',
    },
    {
      icon: <ShieldIcon />,
      title: 'Compra segura',
      text: 'Pagamento protegido e seus dados tratados conforme a LGPD.',
    },
  ];
  return (
    <section aria-label="Por que comprar conosco" className="border-y border-card-border bg-card">
      <ul className="mx-auto grid max-w-store gap-6 px-4 py-8 md:grid-cols-3">
        {blocks.map((block) => (
          <li key={block.title} className="flex items-start gap-3">
            <span className="text-primary">{block.icon}</span>
            <div>
              <h2 className="text-base">{block.title}</h2>
              <p className="text-sm text-product-description">{block.text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
