import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from './server.js';

/** Debian's Chromium (`apt-get install chromium`); `CHROMIUM_PATH` overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results');

export interface LaunchOptions {
  /**
   * Chromium's fake microphone and camera (`--use-fake-device-for-media-stream`: a beeping tone); with
   * `allow: true` the permission prompt is answered yes as well (`--use-fake-ui-for-media-stream`), without it a
   * headless page is refused (NotAllowedError).
   */
  fakeMedia?: { allow: boolean };
}

/** Launches headless Chromium; fails with the install hint when it is missing. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.fakeMedia ? ['--use-fake-device-for-media-stream'] : []),
      ...(options.fakeMedia?.allow ? ['--use-fake-ui-for-media-stream'] : []),
    ],
  });
}

/** One user's browser: an isolated context (own cookies and storage) and a page in it. */
export interface UserPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of the page, for assertions and failure messages. */
  errors: string[];
  /** Answers with status >= 400, as `STATUS METHOD path`. */
  failedResponses: string[];
}

export async function openUserPage(
  browser: Browser,
  baseURL: string,
  options: {
    viewport?: { width: number; height: number };
    colorScheme?: 'light' | 'dark';
    /** A phone or tablet: touch events and the mobile viewport (`hasTouch`, `isMobile`). */
    touch?: boolean;
  } = {},
): Promise<UserPage> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? { width: 1200, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  const failedResponses: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) {
      const url = new URL(response.url());
      failedResponses.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
    }
  });
  return { context, page, errors, failedResponses };
}

/** Saves a full-page screenshot to `test-results/<name>.png` and answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.promises.mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * What went wrong in a page beyond `allowed` answers: uncaught exceptions, console errors other than the
 * browser's own "Failed to load resource" lines (those are listed as answers instead), and failed answers.
 */
export function pageProblems(user: UserPage, allowed: readonly RegExp[] = []): string[] {
  const errors = user.errors.filter((e) => !e.startsWith('console: Failed to load resource'));
  const answers = user.failedResponses.filter((r) => !allowed.some((pattern) => pattern.test(r)));
  return [...errors, ...answers];
}
