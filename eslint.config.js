import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** An amount in cents, by its name: `cents`, `priceCents`, `shipping_cost_cents`. */
const CENTS = '/^cents$|Cents$|_cents$/';
/** A sort's comparison subtracts amounts to order them, which is no arithmetic on money. */
const COMPARATOR = `CallExpression[callee.property.name=/^(sort|toSorted)$/] > ArrowFunctionExpression BinaryExpression`;
const SUM = `BinaryExpression[operator=/^[-+*]$/]:not(${COMPARATOR})`;
const ASSIGN = 'AssignmentExpression[operator=/^[-+*]=$/]';

/**
 * Money is added, taken off and multiplied only in app/modules/pricing (issue 37): anywhere else
 * an amount in cents in a +, - or *, or as the fallback of a ??, is refused, so a second copy of
 * a price rule cannot creep in. By name, so division and remainder (cents to reais for a page or a feed) and comparisons
 * pass. tests/lint/money.test.ts proves what it catches and that every exception still needs it.
 */
export const MONEY_ARITHMETIC = [
  `${SUM} > Identifier[name=${CENTS}]`,
  `${SUM} > MemberExpression > Identifier.property[name=${CENTS}]`,
  `${ASSIGN} > Identifier.left[name=${CENTS}]`,
  `${ASSIGN} > MemberExpression.left > Identifier.property[name=${CENTS}]`,
  // 'This price, else that one' (the variant's, else the product's) is a price rule too.
  `LogicalExpression[operator='??'] > Identifier.right[name=${CENTS}]`,
  `LogicalExpression[operator='??'] > MemberExpression.right > Identifier.property[name=${CENTS}]`,
].map((selector) => ({
  selector,
  message:
    'Money rules (sums, products, a price else another) live in app/modules/pricing: call ' +
    'its rule (effectivePriceCents, lineTotalCents, priceOrder…) or add one there.',
}));

/** Where money may still be added up outside pricing, each with its reason. */
export const MONEY_EXCEPTIONS = [
  // Its home.
  'app/modules/pricing/**',
  // The dashboard's 'Vendas recentes' adds up the days' stored order totals it charts: a
  // report of what orders charged, no price.
  'app/components/admin/dashboard-sales.tsx',
  // The dashboard's cards add up stored order totals across statuses: a report, no price.
  'app/modules/orders/sales-metrics.server.ts',
];

export default tseslint.config(
  { ignores: ['build/', 'build-*/', 'data/', '.react-router/', 'node_modules/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['app/**/*.{ts,tsx}', 'server/**/*.ts'],
    ignores: [...MONEY_EXCEPTIONS, '**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...MONEY_ARITHMETIC] },
  },
  {
    // Scripts talk to the person at the terminal.
    files: ['scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
);
