import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

// The content pages share one module; each gets its own id so React Router can tell them apart.
const CONTENT_PATHS = ['sobre', 'politicadevolucao', 'politicaprivacidade', 'faq', 'contato'];

export default [
  layout('routes/store/layout.tsx', [
    index('routes/store/home.tsx'),
    route('products', 'routes/store/products.tsx'),
    route('product/:id', 'routes/store/product.tsx'),
    route('cart', 'routes/store/cart.tsx'),
    route('checkout', 'routes/store/checkout.tsx'),
    route('order-confirmation', 'routes/store/order-confirmation.tsx'),
    route('payment-callback', 'routes/store/payment-callback.tsx'),
    route('thank-you', 'routes/store/thank-you.tsx'),
    route('historico', 'routes/store/order-history.tsx', { id: 'order-history' }),
    route('purchasehistory', 'routes/store/order-history.tsx', { id: 'purchase-history' }),
    route('favoritos', 'routes/store/favorites.tsx'),
    route('avise-me/confirmar', 'routes/store/restock-confirm.tsx'),
    route('carrinho/recuperar', 'routes/store/cart-recover.tsx'),
    route('carrinho/descadastrar', 'routes/store/unsubscribe.tsx'),
    route('avaliar', 'routes/store/review-order.tsx'),
    route('conta', 'routes/store/account.tsx'),
    route('conta/entrar', 'routes/store/account-sign-in.tsx'),
    ...CONTENT_PATHS.map((path) =>
      route(path, 'routes/store/content-page.tsx', { id: `content-${path}` }),
    ),
    route('*', 'routes/store/not-found.tsx'),
  ]),
  route('admin/login', 'routes/admin/login.tsx'),
  route('admin/esqueci-senha', 'routes/admin/forgot-password.tsx'),
  route('admin/redefinir-senha', 'routes/admin/reset-password.tsx'),
  route('admin/logout', 'routes/admin/logout.ts'),
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/dashboard.tsx'),
    // Produtos
    route('products', 'routes/admin/products.tsx'),
    route('products/new', 'routes/admin/products-form.tsx', { id: 'admin-product-new' }),
    route('products/export.csv', 'routes/admin/products-export.ts'),
    route('products/options', 'routes/admin/product-options.ts'),
    route('products/:id', 'routes/admin/products-form.tsx', { id: 'admin-product-edit' }),
    // Categorias
    route('categories', 'routes/admin/categories.tsx'),
    // Pedidos
    route('orders', 'routes/admin/orders.tsx', [route(':id', 'routes/admin/order-detail.tsx')]),
    route('orders/export.csv', 'routes/admin/orders-export.ts'),
    // Carrinhos abandonados
    route('abandoned', 'routes/admin/abandoned.tsx'),
    // Cupons
    route('coupons', 'routes/admin/coupons.tsx'),
    route('coupons/export.csv', 'routes/admin/coupons-export.ts'),
    // Avaliações
    route('reviews', 'routes/admin/reviews.tsx'),
    // Usuários
    route('users', 'routes/admin/users.tsx'),
    // Pagamentos: the provider, e-mail sending and carrier shipping, with their credentials
    route('payments', 'routes/admin/payments.tsx'),
    // Integrações: the ERP (Bling) that issues the notas fiscais, and its OAuth callback
    route('integrations', 'routes/admin/integrations.tsx'),
    route('integrations/bling/callback', 'routes/admin/integrations-callback.ts'),
    // Configurações
    route('settings', 'routes/admin/settings.tsx'),
    route('settings/preview', 'routes/admin/settings-preview.tsx'),
  ]),
  route('preferences', 'routes/preferences.ts'),
  route('avise-me', 'routes/store/restock.ts'),
  route('conta/sair', 'routes/store/account-sign-out.ts'),
  route('conta/dados', 'routes/store/account-data.ts'),
  route('checkout/contato', 'routes/store/checkout-contact.ts'),
  route('order-confirmation/sandbox', 'routes/store/sandbox-payment.ts'),
  route('api/payments/postback', 'routes/api/payment-postback.ts'),
  route('api/payments/mercadopago', 'routes/api/payment-mercadopago.ts'),
  route('api/payments/pix-api/pix', 'routes/api/payment-pix-api.ts'),
  route('api/shipping/melhorenvio', 'routes/api/shipping-melhorenvio.ts'),
  route('api/invoices/bling', 'routes/api/invoices-bling.ts'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('feeds/:file', 'routes/feeds.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('api/cep/:cep', 'routes/api/cep.ts'),
  route('frete', 'routes/api/shipping-estimate.ts'),
  route('media/:file', 'routes/media.ts'),
  route('og/*', 'routes/og-image.ts'),
] satisfies RouteConfig;
