/** The store's menu (SPEC §2 header), shared by the slide-in menu and the footer. */
export const MENU_LINKS = [
  { to: '/products', label: 'Produtos' },
  { to: '/historico', label: 'Histórico de Compras' },
  { to: '/contato', label: 'Contato' },
  { to: '/sobre', label: 'Sobre Nós' },
  { to: '/politicadevolucao', label: 'Política de Troca e Devolução' },
  { to: '/politicaprivacidade', label: 'Política de Privacidade' },
  { to: '/faq', label: 'FAQ' },
] as const;
