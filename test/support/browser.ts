import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where the browser suites save their screenshots (git-ignored): look at them after a run. */
export const ARTIFACTS_DIR = resolve(__dirname, '..', 'artifacts');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab whose relative URLs resolve against `baseURL`. */
  newPage(): Promise<Page>;
  /** Full-page screenshot saved as test/artifacts/<name>.png; returns the file path. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * One headless Chromium (Debian's, driven by playwright-core) per suite, with a fresh profile directory that
 * `close()` removes. `baseURL` is the test app's address.
 */
export async function launchBrowser(
  baseURL: string,
  options: { viewport?: { width: number; height: number }; hostAliases?: string[] } = {},
): Promise<TestBrowser> {
  const viewport = options.viewport ?? { width: 1280, height: 900 };
  // Extra host names that resolve to 127.0.0.1, to see the app as it is served from a non-local host over http.
  const aliases = (options.hostAliases ?? []).map((host) => `MAP ${host} 127.0.0.1`).join(',');
  const profile = mkdtempSync(join(tmpdir(), 'pay-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: aliases === '' ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, `--host-resolver-rules=${aliases}`],
      baseURL,
      viewport,
      locale: 'en-US',
      timezoneId: 'UTC',
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  return {
    context,
    newPage: () => context.newPage(),
    screenshot: async (page, name) => {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: async () => {
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}
