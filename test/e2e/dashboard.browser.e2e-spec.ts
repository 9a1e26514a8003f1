import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { HubMirror } from '../support/hub-mirror';
import { launchBrowser, openPage, saveScreenshot } from '../support/browser';
import {
  REPO_ROOT,
  ServiceProcess,
  Stack,
  WORKER_ENTRY,
  freePort,
  startStack,
  tempDir,
} from '../support/processes';

/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the built main service and
 * worker, with the local hub mirror standing in for Hugging Face: fresh install → sign up (admin) → the add-model
 * assistant installs the Piper voice with visible progress → the Models page shows it under its family with the
 * facts line → a voice is created → the Studio speaks (Piper and eSpeak NG) and the audio element plays → the
 * History lists, filters and deletes → Administration shows the worker with its device, and a worker started
 * from the "Add server" snippet registers and appears by itself → API keys on the profile → a second user is not
 * an admin and cannot open Administration. Every page is checked with axe (no serious or critical violation) and
 * screenshotted in light and dark to test/artifacts/dashboard-*.png.
 *
 * Needs `npx nest build api && npx nest build worker && (cd client && npm run build)` first, and the fixtures
 * (`node scripts/fixtures.mjs`).
 */

const JOE = 'piper-en-us-joe-medium';
const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'ada password 123' };
const SECOND = { name: 'Bob User', email: 'bob@example.com', password: 'bob password 123' };
const PIPER_TEXT = 'Hello from Chorus. This sentence is spoken by the Piper voice called Joe.';
const ESPEAK_TEXT = 'And this one comes from eSpeak.';

const AXE_PATH = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Chromium reports failed requests (e.g. a refused pull on purpose) as console errors; those are expected. */
const realProblems = (problems: string[]): string[] =>
  problems.filter((problem) => !problem.includes('Failed to load resource'));

// Code that runs in the page is passed as text: this project's TypeScript has no DOM types (Node only).

/** Runs axe on the page; returns the serious and critical violations, readable. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate("'axe' in window"))) {
    await page.addScriptTag({ path: AXE_PATH });
  }
  const violations = await page.evaluate<AxeViolation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)",
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`)
          .join('; ')}`,
    );
}

/** Waits for fonts and for every finite CSS transition or animation running now (e.g. after a theme switch). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    await document.fonts.ready;
    const finite = () =>
      document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    while (finite().length > 0) {
      await Promise.all(finite().map((a) => a.finished.catch(() => undefined)));
    }
  })()`);
}

/** The page in light and dark: an axe check and a screenshot in each (test/artifacts/dashboard-<name>-<theme>.png). */
async function review(page: Page, name: string, fullPage = true): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction(`matchMedia('(prefers-color-scheme: dark)').matches === ${theme === 'dark'}`);
    await settle(page);
    expect({ page: name, theme, violations: await axeViolations(page) }).toEqual({
      page: name,
      theme,
      violations: [],
    });
    await saveScreenshot(page, `dashboard-${name}-${theme}`, fullPage);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function selectOption(page: Page, field: Locator, option: string | RegExp): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option }).click();
  await expectCount(page.getByRole('listbox'), 0);
}

// playwright-core has no web-first assertions: these wait on locators instead (no sleeps, no polling loops).
const WAIT_MS = 30_000;

function expectVisible(locator: Locator, timeout = WAIT_MS): Promise<void> {
  return locator.first().waitFor({ state: 'visible', timeout });
}

/** Waits until the locator matches exactly `count` elements. */
async function expectCount(locator: Locator, count: number): Promise<void> {
  if (count > 0) {
    await locator.nth(count - 1).waitFor({ state: 'attached', timeout: WAIT_MS });
  }
  await locator.nth(count).waitFor({ state: 'detached', timeout: WAIT_MS });
}

/** Waits until (the first element of) the locator contains `text`. */
function expectContains(locator: Locator, text: string): Promise<void> {
  return locator.first().filter({ hasText: text }).waitFor({ state: 'attached', timeout: WAIT_MS });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Waits until (the first element of) the locator's text is exactly `text` (ignoring surrounding space). */
function expectText(locator: Locator, text: string): Promise<void> {
  return locator
    .first()
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) })
    .waitFor({ state: 'attached', timeout: WAIT_MS });
}

describe('dashboard (browser)', () => {
  let hub: HubMirror;
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let extraWorker: ServiceProcess | undefined;

  beforeAll(async () => {
    hub = await HubMirror.start({ root: join(REPO_ROOT, 'test', '.fixtures', 'hub') });
    stack = await startStack({ apiEnv: { HF_ENDPOINT: hub.url } });
    browser = await launchBrowser();
    ({ context, page, problems } = await openPage(browser, { baseURL: stack.api.url, colorScheme: 'light' }));
  });

  afterAll(async () => {
    await browser?.close();
    await extraWorker?.stop();
    await stack?.stop();
    await hub?.stop();
  });

  it('fresh install: sign-up says the first account becomes the administrator, and makes an admin', async () => {
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await expectVisible(page.getByRole('heading', { name: 'Sign in to Chorus' }));
    await review(page, 'sign-in');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/sign-up');
    await expectVisible(
      page.getByText('The first account created on this server becomes its administrator.'),
    );
    await review(page, 'sign-up');

    await page.getByLabel('Name').fill(ADMIN.name);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Repeat the password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expectVisible(nav.getByRole('link', { name: 'Administration' }));
    await expectVisible(page.getByRole('link', { name: `Your profile: ${ADMIN.name}` }));
  });

  it('the add-model assistant installs the Piper voice with visible progress', async () => {
    // Slow the mirror down so that the download takes a few seconds and its progress can be seen.
    hub.setKnobs({ throttleBytesPerSec: 12_000_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
    await page.waitForURL('**/models');
    await page.getByRole('link', { name: 'Add a model' }).click();
    await page.waitForURL('**/models/add');
    await expectVisible(page.getByRole('heading', { name: 'What do you want to do?' }));
    await review(page, 'assistant-purpose');

    await page.getByRole('radio', { name: /Read text aloud/ }).check();
    const piper = page.getByRole('article', { name: 'Piper voices' });
    await expectVisible(piper);
    // Recommended first: the Piper collection (its Joe voice is recommended) leads the list.
    await expectText(
      page.locator('.choices article').first().getByRole('heading', { level: 3 }),
      'Piper voices',
    );
    // Legacy entries are never offered; eSpeak NG (embedded) is shown as installed.
    await expectVisible(page.getByRole('article', { name: 'eSpeak NG' }).getByText('Installed'));

    // One filterable list: by speaker, quality and language.
    await piper.getByLabel('Speaker').fill('jo');
    await expectCount(piper.locator('li.voice'), 1);
    await piper.getByLabel('Speaker').fill('');
    await selectOption(page, piper.getByLabel('Quality'), 'Medium quality');
    await selectOption(page, piper.getByLabel('Language'), 'American English');
    await piper.getByLabel('Speaker').fill('Joe');
    const joe = piper.locator(`li[data-entry="${JOE}"]`);
    await expectVisible(joe);
    await expectCount(piper.locator('li.voice'), 1);
    await review(page, 'assistant-choices');

    await joe.getByRole('button', { name: 'Install Joe (English, US)' }).click();
    // Live progress from the jobs stream: a progress bar with the status in words, then "installed".
    await expectVisible(joe.getByRole('progressbar'));
    await expectVisible(joe.locator('app-job-progress').getByText(/Downloading|Waiting to start|Installing/));
    await saveScreenshot(page, 'dashboard-assistant-progress-light');
    await expectVisible(joe.getByText('Joe (English, US) is installed.'), 120_000);
    await expectVisible(joe.locator('app-job-progress').getByText('Installed'));
    hub.resetKnobs();
  });

  it('the Models page shows the voice under its family with the facts line and its worker', async () => {
    await page.getByRole('link', { name: 'See it on the Models page' }).click();
    await page.waitForURL('**/models');
    const family = page.getByRole('region', { name: 'Piper' });
    await expectVisible(family);
    const variant = family.locator(`li[data-model="${JOE}"]`);
    await expectText(variant.getByRole('heading', { level: 3 }), 'Joe (English, US)');
    const facts = variant.getByRole('list', { name: 'Facts' });
    for (const fact of ['CPU', 'CC0-1.0', 'English', '63.2 MB']) {
      await expectContains(facts, fact);
    }
    await expectContains(variant.getByRole('list', { name: 'Workers holding this model' }), 'Local · CPU');
    await expectVisible(page.getByRole('region', { name: 'eSpeak NG' }));
    await review(page, 'models');
  });

  it('creates a voice on the Piper model', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Voices' }).click();
    await page.waitForURL('**/voices');
    await expectVisible(page.getByText(/No voices yet/));
    await page.getByRole('link', { name: 'New voice' }).click();
    await page.waitForURL('**/voices/new');
    await page.getByLabel('Name').fill('Narrator');
    await selectOption(page, page.getByLabel('Model'), 'Joe (English, US)');
    await page.getByLabel('Description').fill('Calm, for audiobooks.');
    const tags = page.getByPlaceholder('Add a tag…');
    await tags.fill('calm');
    await tags.press('Enter');
    await review(page, 'voice-new');
    await page.getByRole('button', { name: 'Create voice' }).click();
    await page.waitForURL(/\/voices\/[a-z0-9]{15}$/);
    await expectVisible(page.getByText('Saved.'));

    await page.getByRole('link', { name: 'Voices' }).first().click();
    await page.waitForURL('**/voices');
    const card = page.locator('li.card', { hasText: 'Narrator' });
    await expectVisible(card);
    await expectContains(card, 'Joe (English, US)');
    await expectContains(card, 'calm');
    await review(page, 'voices');
  });

  it('generates speech in the Studio: streams, then the audio element plays', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Studio' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('textbox', { name: 'Text' }).fill(PIPER_TEXT);
    await selectOption(page, page.getByLabel('Model'), 'Joe (English, US)');
    await selectOption(page, page.getByLabel('Voice'), 'Narrator');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();

    const audio = page.locator('section.result audio');
    await expectVisible(audio, 60_000);
    await expectVisible(page.getByRole('link', { name: 'Download WAV' }));
    // Metadata loaded, then playback really advances.
    const played = await page.evaluate<{ duration: number; currentTime: number }>(`(async () => {
      const element = document.querySelector('section.result audio');
      if (element.readyState < 1) {
        await new Promise((resolve) => element.addEventListener('loadedmetadata', resolve, { once: true }));
      }
      await element.play();
      await new Promise((resolve) => {
        const check = () => (element.currentTime > 0 ? resolve() : requestAnimationFrame(check));
        check();
      });
      element.pause();
      return { duration: element.duration, currentTime: element.currentTime };
    })()`);
    expect(played.duration).toBeGreaterThan(1);
    expect(played.currentTime).toBeGreaterThan(0);

    // The recent generations list picks it up.
    const recent = page.getByRole('region', { name: 'Recent generations' });
    await expectVisible(recent.getByText(PIPER_TEXT));
    await expectContains(recent.locator('app-generation-item').first(), 'Narrator');
    await review(page, 'studio');

    // A second one with the embedded eSpeak NG, without streaming.
    await page.getByRole('textbox', { name: 'Text' }).fill(ESPEAK_TEXT);
    await selectOption(page, page.getByLabel('Model'), 'eSpeak NG');
    await page.getByRole('switch', { name: /Stream/ }).click();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await expectVisible(recent.getByText(ESPEAK_TEXT), 60_000);
    const duration = await page.evaluate<number>(`(async () => {
      const element = document.querySelector('section.result audio');
      if (element.readyState < 1) {
        await new Promise((resolve) => element.addEventListener('loadedmetadata', resolve, { once: true }));
      }
      return element.duration;
    })()`);
    expect(duration).toBeGreaterThan(0.5);
  });

  it('History lists both, filters by model and deletes', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL('**/history');
    const items = page.locator('app-generation-item');
    await expectCount(items, 2);
    await review(page, 'history');

    await selectOption(page, page.getByLabel('Model'), 'Joe (English, US)');
    await expectCount(items, 1);
    await expectContains(items.first(), PIPER_TEXT);

    // Play loads the audio with the session.
    await items.first().getByRole('button', { name: /^Play/ }).click();
    await expectVisible(items.first().locator('audio'));

    await items
      .first()
      .getByRole('button', { name: /^Delete/ })
      .click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this generation?' });
    await expectVisible(dialog);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectVisible(page.getByText('No generation matches these filters.'));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expectCount(items, 1);
    await expectContains(items.first(), ESPEAK_TEXT);

    // Re-use the text: back in the Studio with it (and its model) filled in.
    await items
      .first()
      .getByRole('button', { name: /^Use text/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    const text = page.getByRole('textbox', { name: 'Text' });
    await expectVisible(text);
    expect(await text.inputValue()).toBe(ESPEAK_TEXT);
    await expectText(page.getByLabel('Model'), 'eSpeak NG');
  });

  it('Administration shows the worker with its device; a worker started from the snippet appears by itself', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Administration' })
      .click();
    await page.waitForURL('**/admin');
    const servers = page.getByRole('table', { name: 'Inference servers' });
    const local = servers.getByRole('row', { name: /Local/ });
    await expectVisible(local);
    await expectContains(local, 'Online');
    await expectText(local.locator('td.device'), 'CPU');
    const users = page.getByRole('table', { name: 'Users of this server' });
    await expectContains(users.getByRole('row', { name: new RegExp(ADMIN.email) }), 'Administrator');
    await expectVisible(page.getByText('Live', { exact: true }));
    await review(page, 'admin');

    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an inference server' });
    await expectVisible(dialog);
    await dialog.getByLabel('Server name').fill('e2e-extra');
    await expectVisible(dialog.getByText(/Registration token created\. It can be used until/));
    const docker = await dialog.locator('pre[data-snippet="docker"]').innerText();
    const origin = new URL(stack.api.url).origin;
    expect(docker).toContain(`SERVICE_URL=${origin}`);
    expect(docker).toContain('INFERENCE_NAME=e2e-extra');
    expect(docker).toContain('chorus-worker:latest');
    const registrationToken = /SERVICE_REGISTRATION_TOKEN=(\S+)/.exec(docker)?.[1];
    const authToken = /INFERENCE_AUTH_TOKEN=([0-9a-f]{64})/.exec(docker)?.[1];
    expect(registrationToken).toBeTruthy();
    expect(authToken).toBeTruthy();
    await dialog.getByRole('tab', { name: 'Docker Compose' }).click();
    await expectContains(
      dialog.locator('pre[data-snippet="compose"]'),
      `SERVICE_REGISTRATION_TOKEN: "${registrationToken}"`,
    );
    await dialog.getByRole('tab', { name: 'Kubernetes' }).click();
    await expectContains(dialog.locator('pre[data-snippet="kubernetes"]'), `auth-token: "${authToken}"`);
    // A dialog: the viewport is what the user sees (a full-page shot cuts the backdrop).
    await review(page, 'admin-add-server', false);

    // Start a worker the way the snippet says; the dialog and the table show it once it registers.
    const port = await freePort();
    const dir = tempDir('extra');
    extraWorker = await ServiceProcess.start({
      name: 'extra-worker',
      entry: WORKER_ENTRY,
      port,
      readyPath: '/health',
      env: {
        PORT: String(port),
        INFERENCE_MODELS_PATH: join(dir, 'models'),
        PACKAGES_DIR: join(dir, 'packages'),
        SERVICE_URL: origin,
        SERVICE_REGISTRATION_TOKEN: registrationToken!,
        INFERENCE_AUTH_TOKEN: authToken!,
        INFERENCE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        INFERENCE_NAME: 'e2e-extra',
        INFERENCE_DEVICE: 'cpu',
      },
    });
    await expectVisible(dialog.getByText('e2e-extra registered and is online.'), 30_000);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const extra = servers.getByRole('row', { name: /e2e-extra/ });
    await expectVisible(extra);
    await expectContains(extra, 'Online');
    await expectText(extra.locator('td.device'), 'CPU');
  });

  it('profile: creates an API key shown once, which works, then revokes it', async () => {
    await page.getByRole('link', { name: `Your profile: ${ADMIN.name}` }).click();
    await page.waitForURL('**/profile');
    await expectText(page.getByTestId('role'), 'Administrator');
    await page.getByLabel('Key name').fill('e2e script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').innerText()).trim();
    expect(key.length).toBeGreaterThan(20);
    await expectVisible(page.getByRole('button', { name: 'Copy the key' }));
    const withKey = await fetch(`${stack.api.url}/api/models/installed`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withKey.status).toBe(200);
    await review(page, 'profile');

    await page.getByRole('button', { name: 'Revoke key e2e script' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expectVisible(page.getByText('You have no API keys yet.'));
    const revoked = await fetch(`${stack.api.url}/api/models/installed`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(revoked.status).toBe(401);
    expect(realProblems(problems)).toEqual([]);
  });

  it('a second user is not an administrator and cannot open Administration', async () => {
    const second = await openPage(browser, { baseURL: stack.api.url, colorScheme: 'light' });
    try {
      const p = second.page;
      await p.goto('/sign-up');
      await p.getByLabel('Name').fill(SECOND.name);
      await p.getByLabel('E-mail').fill(SECOND.email);
      await p.getByLabel('Password', { exact: true }).fill(SECOND.password);
      await p.getByLabel('Repeat the password').fill(SECOND.password);
      await p.getByRole('button', { name: 'Create account' }).click();
      await p.waitForURL((url) => url.pathname === '/');
      const nav = p.getByRole('navigation', { name: 'Main' });
      await expectVisible(nav.getByRole('link', { name: 'Studio' }));
      await expectCount(nav.getByRole('link', { name: 'Administration' }), 0);

      await p.goto('/admin');
      await p.waitForURL('**/forbidden');
      await expectVisible(p.getByRole('heading', { name: 'Administrators only' }));
      await review(p, 'forbidden');
      await p.goto('/profile');
      await expectText(p.getByTestId('role'), 'User');

      // The models page has no admin actions for them.
      await p.goto('/models');
      await expectVisible(p.getByRole('region', { name: 'Piper' }));
      await expectCount(p.getByRole('link', { name: 'Add a model' }), 0);
      await expectCount(p.getByRole('button', { name: /^Remove/ }), 0);

      // Signing out leads back to the sign-in page, and the pages need signing in again.
      await p.getByRole('button', { name: 'Sign out' }).click();
      await p.waitForURL('**/sign-in');
      await p.goto('/history');
      await p.waitForURL('**/sign-in?redirect=%2Fhistory');
      expect(realProblems(second.problems)).toEqual([]);
    } finally {
      await second.context.close();
    }
  });

  it('fits a phone screen', async () => {
    const phone = await browser.newContext({
      baseURL: stack.api.url,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
      storageState: await context.storageState(),
    });
    try {
      const p = await phone.newPage();
      for (const [path, name] of [
        ['/', 'studio'],
        ['/models', 'models'],
        ['/admin', 'admin'],
      ] as const) {
        await p.goto(path);
        await expectVisible(p.locator('h1'));
        await p.waitForLoadState('networkidle');
        const overflow = await p.evaluate('document.documentElement.scrollWidth - window.innerWidth');
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
        await saveScreenshot(p, `dashboard-phone-${name}-light`);
      }
    } finally {
      await phone.close();
    }
  });

  it('an admin removes the Piper voice: it leaves the Models page by itself', async () => {
    await page.goto('/models');
    const family = page.getByRole('region', { name: 'Piper' });
    await expectVisible(family);
    await family.getByRole('button', { name: 'Remove Joe (English, US)' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove Joe (English, US)?' });
    await expectVisible(dialog);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await family.waitFor({ state: 'detached', timeout: WAIT_MS });
    await expectVisible(page.getByRole('region', { name: 'eSpeak NG' }));
    expect(realProblems(problems)).toEqual([]);
  });
});
