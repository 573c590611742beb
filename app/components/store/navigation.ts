/** The store's menu (SPEC §2 header), shared by the slide-in menu and the footer. */
export const MENU_LINKS = [
  { to: '/products', label: 'Produtos' },
  { to: '/historico', label: 'Histórico de compras' },
  { to: '/conta', label: 'Minha conta' },
  { to: '/contato', label: 'Contato' },
  { to: '/sobre', label: 'Sobre nós' },
  { to: '/politicadevolucao', label: 'Política de troca e devolução' },
  { to: '/politicaprivacidade', label: 'Política de privacidade' },
  { to: '/faq', label: 'FAQ' },
] as const;
