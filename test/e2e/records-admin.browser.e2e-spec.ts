import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser, openPage, saveScreenshot } from '../support/browser';
import { Stack, runSuperuserCli, startStack } from '../support/processes';

/**
 * The records admin panel at /_/ in a real browser, against the built main service (which serves the built
 * client): a superuser signs in, sees the collections with their counts, edits a user (name and avatar) and sees
 * the change in the table and through the API, and sees a record created through the API appear live.
 * Needs `npx nest build api && npx nest build worker && (cd client && npm run build)` first.
 */

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'superuser password 1';
const USER_PASSWORD = 'user password 1';

interface UserRecord {
  id: string;
  email: string;
  name: string;
  avatar: string;
}

/** Chromium reports failed requests (the 400s this test provokes on purpose) as console errors. */
const realProblems = (problems: string[]): string[] =>
  problems.filter((problem) => !problem.includes('Failed to load resource'));

describe('records admin panel at /_/ (browser)', () => {
  let stack: Stack;
  let browser: Browser;
  let adminToken: string;
  let ada: UserRecord;

  async function api<T>(
    path: string,
    init: { method?: string; body?: unknown; token?: string } = {},
  ): Promise<T> {
    const response = await fetch(`${stack.api.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { authorization: init.token } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
    }
    return JSON.parse(text) as T;
  }

  function signUp(email: string, name: string): Promise<UserRecord> {
    return api<UserRecord>('/api/collections/users/records', {
      method: 'POST',
      body: { email, password: USER_PASSWORD, passwordConfirm: USER_PASSWORD, name },
    });
  }

  async function collectionCounts(): Promise<Map<string, number>> {
    const list = await api<{ items: { name: string; recordCount: number }[] }>('/api/collections', {
      token: adminToken,
    });
    return new Map(list.items.map((c) => [c.name, c.recordCount]));
  }

  const recordsLabel = (n: number): string => (n === 1 ? '1 record' : `${n} records`);

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  beforeAll(async () => {
    stack = await startStack();
    // The real CLI, as an operator would run it (it works beside a running service).
    const cli = runSuperuserCli(stack.dataDir, ['upsert', ADMIN_EMAIL, ADMIN_PASSWORD]);
    expect(cli.stdout).toContain(ADMIN_EMAIL);
    adminToken = (
      await api<{ token: string }>('/api/collections/_superusers/auth-with-password', {
        method: 'POST',
        body: { identity: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      })
    ).token;
    ada = await signUp('ada@example.com', 'Ada Lovelace');
    await signUp('grace@example.com', 'Grace Hopper');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('signs in as a superuser, edits a user (name and avatar), and shows records created elsewhere live', async () => {
    const { page, problems, context } = await openPage(browser, {
      baseURL: stack.api.url,
      colorScheme: 'light',
    });

    // Not signed in: /_/ leads to the sign-in form.
    await page.goto('/_/');
    await page.waitForURL('**/_/login');
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/_' || url.pathname === '/_/');

    // Collections with their record counts, in the side navigation.
    const nav = page.getByRole('navigation', { name: 'Collections' });
    for (const [name, count] of await collectionCounts()) {
      await nav.getByRole('link', { name: `${name}, ${recordsLabel(count)}`, exact: true }).waitFor();
    }

    // The users table, live.
    await nav.getByRole('link', { name: /^users,/ }).click();
    await page.waitForURL('**/_/collections/users');
    const table = page.getByRole('table');
    await table.getByRole('row').filter({ hasText: 'grace@example.com' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await saveScreenshot(page, 'records-admin-table-light');

    // Edit Ada: a new name and an avatar, through the side panel.
    await table.getByRole('button', { name: `Open record ${ada.id}` }).click();
    const panel = page.getByRole('dialog', { name: 'Edit users record' });
    await panel.waitFor();
    await panel.getByLabel('name', { exact: true }).fill('Ada, Countess of Lovelace');
    const avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    await panel
      .locator('input[type=file]')
      .setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: avatar });
    await panel.getByText('ada.png').waitFor();
    await saveScreenshot(page, 'records-admin-panel-light', false);
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.waitFor({ state: 'hidden' });

    // The table shows the change (name and avatar thumb), and so does the API.
    const adaRow = table.getByRole('row').filter({ hasText: 'ada@example.com' });
    await adaRow.getByRole('cell', { name: 'Ada, Countess of Lovelace', exact: true }).waitFor();
    await adaRow.getByRole('img', { name: /^ada_\w+\.png$/ }).waitFor();
    const saved = await api<UserRecord>(`/api/collections/users/records/${ada.id}`, { token: adminToken });
    expect(saved.name).toBe('Ada, Countess of Lovelace');
    expect(saved.avatar).toMatch(/^ada_\w+\.png$/);

    // A record created through the API shows up without a reload, and the count follows.
    const linus = await signUp('linus@example.com', 'Linus Realtime');
    await table
      .getByRole('row')
      .filter({ hasText: linus.email })
      .getByRole('cell', { name: linus.name })
      .waitFor();
    await nav.getByRole('link', { name: 'users, 3 records', exact: true }).waitFor();
    await saveScreenshot(page, 'records-admin-table-after-light');

    expect(realProblems(problems)).toEqual([]);
    await context.close();
  });

  it('refuses non-superusers, shows filter errors, and works in the dark theme', async () => {
    const { page, problems, context } = await openPage(browser, {
      baseURL: stack.api.url,
      colorScheme: 'dark',
    });

    // A normal user's credentials do not open the panel.
    await page.goto('/_/collections/users');
    await page.waitForURL('**/_/login?**');
    await signIn(page, 'grace@example.com', USER_PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'not a superuser' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/_/login');
    await saveScreenshot(page, 'records-admin-sign-in-dark');

    // The superuser signs in and comes back to the page asked for.
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL('**/_/collections/users');
    const table = page.getByRole('table');
    await table.getByRole('row').filter({ hasText: 'ada@example.com' }).waitFor();

    // A malformed filter: the API's 400 message is shown.
    await page.getByRole('textbox', { name: 'Filter' }).fill("name = 'Ada");
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid filter at position' }).waitFor();
    await saveScreenshot(page, 'records-admin-filter-error-dark');

    // A valid one narrows the table.
    await page.getByRole('textbox', { name: 'Filter' }).fill('name ~ "Grace"');
    await page.getByRole('button', { name: 'Apply' }).click();
    await table.getByRole('row').filter({ hasText: 'grace@example.com' }).waitFor();
    await table.getByRole('row').filter({ hasText: 'ada@example.com' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await table.getByRole('row').filter({ hasText: 'ada@example.com' }).waitFor();
    await saveScreenshot(page, 'records-admin-table-dark');

    await table.getByRole('button', { name: `Open record ${ada.id}` }).click();
    const panel = page.getByRole('dialog', { name: 'Edit users record' });
    await panel.locator('img').first().waitFor();
    await saveScreenshot(page, 'records-admin-panel-dark', false);
    await panel.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'hidden' });

    // Small screens: the navigation wraps above the table, the panel takes the whole width.
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'records-admin-table-mobile-dark');
    await table.getByRole('button', { name: `Open record ${ada.id}` }).click();
    await panel.locator('img').first().waitFor();
    await saveScreenshot(page, 'records-admin-panel-mobile-dark', false);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    // Signing out leads back to the sign-in form.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/_/login');

    expect(realProblems(problems)).toEqual([]);
    await context.close();
  });
});
