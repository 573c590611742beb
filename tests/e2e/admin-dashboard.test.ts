import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { products } from '~/db/schema';
import { addDays, PERIOD_MESSAGES, todayIn } from '~/lib/periods';
import type { OrderStatus } from '~/modules/orders';

import { adminVisitor, signIn, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { insertOrderRow } from '../support/orders';
import { clearOfMidnight } from '../support/until';
import { Visitor, visibleText } from '../support/visitor';

// The store's calendar (São Paulo has kept UTC−3 all year since 2019). The data is placed on
// its days, then read back from a server that reads its own clock: set once the file is clear of
// midnight there (clearOfMidnight), before the store is prepared.
const TIME_ZONE = 'America/Sao_Paulo';
let TODAY: string;
let YESTERDAY: string;
let FIVE_DAYS_AGO: string;
// The file takes under a minute, several on a loaded machine.
const MIDNIGHT_MARGIN_MS = 2 * 60_000;

const at = (day: string, time: string) => new Date(`${day}T${time}:00-03:00`);

async function placeOrder(db: Db, createdAt: Date, status: OrderStatus, cents: number) {
  await insertOrderRow(db, { createdAt, status, cents });
}

// Today: R$ 150 paid, R$ 50 shipped, R$ 20 pending. Yesterday: R$ 30 delivered, R$ 70
// cancelled. Five days ago: R$ 10 paid. The sample store's 10 products are added today (the
// run's store template may have been made the day before).
const prepare = withAdmin(async (db) => {
  await db.update(products).set({ createdAt: at(TODAY, '00:01') });
  await placeOrder(db, at(TODAY, '00:05'), 'confirmed', 15_000);
  await placeOrder(db, at(TODAY, '00:10'), 'shipped', 5_000);
  await placeOrder(db, at(TODAY, '00:15'), 'pending', 2_000);
  await placeOrder(db, at(YESTERDAY, '23:30'), 'delivered', 3_000);
  await placeOrder(db, at(YESTERDAY, '09:00'), 'cancelled', 7_000);
  await placeOrder(db, at(FIVE_DAYS_AGO, '12:00'), 'confirmed', 1_000);
});

const metric = (page: Page, id: string) => page.locator(`[data-metric="${id}"]`).innerText();
const trend = (page: Page, id: string) => page.locator(`[data-trend="${id}"]`).innerText();
const statusCount = (page: Page, status: string) =>
  page.locator(`[data-status="${status}"]`).innerText();

/** The page fits its width: nothing scrolls sideways. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
}

describe('admin dashboard', () => {
  beforeAll(async () => {
    await clearOfMidnight(TIME_ZONE, MIDNIGHT_MARGIN_MS);
    TODAY = todayIn(TIME_ZONE);
    YESTERDAY = addDays(TODAY, -1);
    FIVE_DAYS_AGO = addDays(TODAY, -5);
  }, MIDNIGHT_MARGIN_MS + 60_000);
  const store = useStoreAndBrowser({ prepare });

  async function signedInPage(size: { width: number; height: number }) {
    const opened = await openPage(store.browser, `${store.server.url}/admin/login`, size);
    await signIn(opened.page, store.server.url);
    return opened;
  }

  it.each(Object.entries(VIEWPORTS))(
    'shows the figures of each period at %s width',
    async (_name, size) => {
      const { page, problems } = await signedInPage(size);
      await expect.poll(() => page.getByText('Atualizado agora').count()).toBe(1);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Dashboard');
      await expect(
        page.getByRole('link', { name: 'Hoje' }).getAttribute('aria-current'),
      ).resolves.toBe('page');

      // Today against yesterday.
      expect(await metric(page, 'totalOrders')).toBe('3');
      expect(await trend(page, 'totalOrders')).toBe('+50%');
      expect(await metric(page, 'paidOrders')).toBe('2');
      expect(await trend(page, 'paidOrders')).toBe('+100%');
      expect(await metric(page, 'periodSales')).toBe('R$ 200,00');
      expect(await trend(page, 'periodSales')).toBe('+567%');
      expect(await metric(page, 'pendingOrders')).toBe('1');
      expect(await trend(page, 'pendingOrders')).toBe('novo');
      expect(await metric(page, 'totalProducts')).toBe('10');
      expect(await page.getByText('10 produtos novos no período').count()).toBe(1);
      expect(await statusCount(page, 'confirmed')).toBe('1');
      expect(await statusCount(page, 'shipped')).toBe('1');
      expect(await statusCount(page, 'pending')).toBe('1');
      expect(await statusCount(page, 'total')).toBe('3');
      // One day's sales still draw a chart.
      await page.locator('.sales-chart canvas').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      await page.getByRole('link', { name: 'Ontem' }).click();
      await page.waitForURL(/period=ontem/);
      await expect.poll(() => metric(page, 'totalOrders')).toBe('2');
      expect(await trend(page, 'totalOrders')).toBe('novo');
      expect(await metric(page, 'periodSales')).toBe('R$ 30,00');
      expect(await statusCount(page, 'cancelled')).toBe('1');
      expect(await statusCount(page, 'delivered')).toBe('1');
      expect(await page.getByText('Nenhum produto novo no período').count()).toBe(1);

      await page.getByRole('link', { name: 'Últimos 7 dias' }).click();
      await page.waitForURL(/period=7dias/);
      await expect.poll(() => metric(page, 'totalOrders')).toBe('6');
      expect(await metric(page, 'periodSales')).toBe('R$ 240,00');
      expect(await trend(page, 'periodSales')).toBe('novo');
      await page.locator('.sales-chart canvas').waitFor();
      await page.getByText('Ver vendas por dia').click();
      const yesterdayRow = page.getByRole('row', {
        name: new RegExp(`^${YESTERDAY.split('-').reverse().join('/')}`),
      });
      expect(await yesterdayRow.innerText()).toMatch(/1\s+R\$ 30,00/);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      await page.getByRole('link', { name: 'Este mês' }).click();
      await page.waitForURL(/period=mes/);
      await expect
        .poll(() => page.getByRole('link', { name: 'Este mês' }).getAttribute('aria-current'))
        .toBe('page');
      // The month's sales are the period's when the period is the month.
      expect(await metric(page, 'monthSales')).toBe(await metric(page, 'periodSales'));

      // Personalizado keeps the days shown and opens the two dates.
      await page.getByRole('link', { name: 'Personalizado' }).click();
      await page.getByLabel('Data inicial').fill(FIVE_DAYS_AGO);
      await page.getByLabel('Data final').fill(YESTERDAY);
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await page.waitForURL(new RegExp(`from=${FIVE_DAYS_AGO}&to=${YESTERDAY}`));
      await expect.poll(() => metric(page, 'totalOrders')).toBe('3');
      expect(await metric(page, 'periodSales')).toBe('R$ 40,00');
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      // A period without sales says so instead of drawing an empty chart.
      await page.getByLabel('Data inicial').fill('2020-01-01');
      await page.getByLabel('Data final').fill('2020-01-31');
      await page.getByRole('button', { name: 'Aplicar' }).click();
      await expect.poll(() => page.getByText('Nenhum dado de vendas disponível').count()).toBe(1);
      expect(await page.locator('.sales-chart').count()).toBe(0);
      expect(await metric(page, 'totalOrders')).toBe('0');
      expect(await trend(page, 'totalOrders')).toBe('—');

      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('sends each quick action where it says, and offers no Relatórios yet', async () => {
    const { page } = await signedInPage(VIEWPORTS.mobile);
    const cases = [
      ['Adicionar produto', '/admin/products/new'],
      ['Ver pedidos', '/admin/orders'],
      ['Gerenciar usuários', '/admin/users'],
    ] as const;
    await page.goto(`${store.server.url}/admin?period=7dias`);
    // Relatórios only opened Pedidos: it is gone from the dashboard and the menu until it is one.
    expect(await page.getByRole('link', { name: 'Relatórios' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Relatórios' }).count()).toBe(0);
    for (const [label, target] of cases) {
      await page.goto(`${store.server.url}/admin?period=7dias`);
      await page.getByRole('link', { name: label }).click();
      await page.waitForURL((url) => `${url.pathname}${url.search}` === target);
    }
    await page.context().close();
  });

  it('answers a bad custom period with today and a message, never an error', async () => {
    const admin = await adminVisitor(store.server.url);
    const cases = [
      ['period=personalizado&from=2025-02-30&to=2025-03-01', PERIOD_MESSAGES.invalidDates],
      ['period=personalizado&from=2025-02-01', PERIOD_MESSAGES.missingDates],
      ['period=personalizado&from=%00&to=%FF', PERIOD_MESSAGES.invalidDates],
      ['period=personalizado&from=2025-03-05&to=2025-03-01', PERIOD_MESSAGES.swapped],
    ] as const;
    for (const [query, message] of cases) {
      const page = await admin.get(`/admin?${query}`);
      expect(page.status).toBe(200);
      expect(visibleText(page.text)).toContain(message);
    }
    const unknown = await admin.get('/admin?period=semana&from[]=x');
    expect(unknown.status).toBe(200);
    expect(visibleText(unknown.text)).toContain('Total de pedidos 3');
  });

  it('shows nothing to a visitor who is not signed in', async () => {
    const page = await new Visitor(store.server.url).get('/admin?period=mes');
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/^\/admin\/login/);
  });
});
