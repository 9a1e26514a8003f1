import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  chromium,
  LaunchOptions,
  Page,
} from 'playwright-core';
import { REPO_ROOT } from './processes';

/**
 * Shared launcher for browser tests (Jest e2e tier): Debian's Chromium driven by playwright-core, headless,
 * offline-friendly (no background networking, updates, sync or QUIC). Screenshots go to test/artifacts/
 * (git-ignored). Typical use:
 *
 *   const browser = await launchBrowser();
 *   const { page, problems } = await openPage(browser, { baseURL: stack.api.url });
 *   await page.goto('/');
 *   await saveScreenshot(page, 'home-light');
 *   expect(problems).toEqual([]);
 *   await browser.close();
 */

/** Chromium to drive; override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const ARTIFACTS_DIR = join(REPO_ROOT, 'test', 'artifacts');

export function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    ...options,
  });
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors seen so far (for assertions and diagnosis). */
  problems: string[];
}

/**
 * A page in a new, empty context (no cookies or storage). `baseURL` makes `page.goto('/path')` relative.
 * Defaults: 1280×800, light colour scheme, en-US, UTC.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
    ...options,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(`console: ${message.text()}`);
    }
  });
  return { context, page, problems };
}

/** Saves a PNG screenshot as test/artifacts/<name>.png and returns its path. */
export async function saveScreenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled', caret: 'hide' });
  return path;
}
