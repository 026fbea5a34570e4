// The two engines Playwright cannot drive here, behind one small interface the journeys are written against:
// Firefox ESR over WebDriver BiDi (puppeteer-core; Playwright's own Firefox build cannot be downloaded, and its BiDi
// channel does not drive ESR) and WebKitGTK, Safari's engine, over classic WebDriver (WebKitWebDriver from Debian's
// webkit2gtk-driver, in an Xvfb display; its MiniBrowser runs automation sessions as private ones). Elements are
// found as the user finds them, by role and visible name (as Playwright's getByRole), in the page itself.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { Builder, type WebDriver, type WebElement } from 'selenium-webdriver';
import { freePort } from '../own-server';
import { PHONE } from '../screens';

export type EngineName = 'firefox' | 'webkit';

export interface Viewport {
  width: number;
  height: number;
}

export const FIREFOX_BINARY = '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const WEBKIT_BROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Whether this machine has the engine (`.ci/run` installs both). */
export function engineInstalled(name: EngineName): boolean {
  const files = name === 'firefox' ? [FIREFOX_BINARY] : [WEBKIT_DRIVER, WEBKIT_BROWSER, '/usr/bin/xvfb-run'];
  return files.every((file) => fs.existsSync(file));
}

export type Role = 'button' | 'link' | 'checkbox' | 'option' | 'combobox' | 'heading' | 'img';

/** A name as Playwright's `{ name, exact: true }`, or a pattern. */
export type Name = string | RegExp;

/** What the page-side finder takes: the name as text or as a pattern's source and flags. */
type NameArg = { text: string } | { source: string; flags: string };

function nameArg(name: Name): NameArg {
  return typeof name === 'string' ? { text: name } : { source: name.source, flags: name.flags };
}

/**
 * Runs in the page: the first visible element of `role` whose accessible name (aria-label, aria-labelledby, its
 * label, else its text, whitespace collapsed) is `name`; `role` 'file' finds a file input by its label's text, and
 * 'field' any form control by its label. Self-contained: it is sent to the page as source.
 */
function findInPage(role: string, name: NameArg): Element | null {
  const selectors: Record<string, string> = {
    button: 'button, [role="button"], input[type="submit"], input[type="button"]',
    link: 'a[href], [role="link"]',
    checkbox: 'input[type="checkbox"], [role="checkbox"]',
    option: '[role="option"], option',
    combobox: '[role="combobox"], select',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    img: 'img, [role="img"]',
    file: 'input[type="file"]',
    field: 'input, select, textarea',
  };
  const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  const labelText = (element: Element) => {
    const labels = (element as HTMLInputElement).labels;
    return labels && labels.length > 0 ? clean(labels[0]?.textContent).replace(/\s*\*$/, '') : null;
  };
  const accessibleName = (element: Element) => {
    const label = element.getAttribute('aria-label');
    if (label) return clean(label);
    const by = element.getAttribute('aria-labelledby');
    if (by)
      return clean(
        by
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
    if (element instanceof HTMLImageElement) return clean(element.alt);
    return labelText(element) ?? clean(element.textContent || (element as HTMLInputElement).value);
  };
  const matches = (candidate: string) =>
    'text' in name ? candidate === name.text : new RegExp(name.source, name.flags).test(candidate);
  const shown = (element: Element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
  };
  for (const element of Array.from(document.querySelectorAll(selectors[role] ?? role))) {
    if (role === 'file' || role === 'field') {
      if (matches(labelText(element) ?? accessibleName(element))) return element;
    } else if (shown(element) && matches(accessibleName(element))) return element;
  }
  return null;
}

const FIND_SOURCE = findInPage.toString();

/** One browser window of one engine, at phone size unless told. */
export interface Engine {
  readonly name: EngineName;
  readonly version: string;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Runs `script` (a function's source, called with `args`) in the page and answers its (awaited) result. */
  evaluate<T>(script: string, ...args: unknown[]): Promise<T>;
  /** Whether an element of that role and name is on the page now. */
  has(role: Role, name: Name): Promise<boolean>;
  click(role: Role, name: Name): Promise<void>;
  /** Clicks inside the first element matching `selector`, at fractions of its width and height. */
  clickInside(selector: string, fx: number, fy: number): Promise<void>;
  /** Ticks the checkbox named `name` (again, until the page shows it ticked). */
  check(name: Name): Promise<void>;
  /** Types into the text field labelled `label`, replacing what it held. */
  fill(label: string, value: string): Promise<void>;
  /** Chooses `value` in the native select labelled `label`. */
  select(label: string, value: string): Promise<void>;
  /** Gives the file input labelled `label` a file from disk. */
  setFile(label: string, file: string): Promise<void>;
  screenshot(file: string): Promise<void>;
  /** Uncaught errors and rejections the page reported since it loaded. */
  pageErrors(): Promise<string[]>;
  close(): Promise<void>;
}

/** Polls `check` until it answers true, for `timeout` ms; the failure names `what`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeout = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error; // a page navigating away answers nothing for a moment
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`waited ${timeout} ms for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** The page's visible text, whitespace collapsed. */
export async function pageText(engine: Engine): Promise<string> {
  return engine.evaluate<string>('() => document.body.innerText.replace(/\\s+/g, " ")');
}

/** Waits for `text` (a substring, or a pattern) in the page's visible text. */
export async function waitForText(engine: Engine, text: Name, timeout = 15_000): Promise<void> {
  await waitUntil(
    `'${String(text)}' on the page`,
    async () => {
      const body = await pageText(engine);
      return typeof text === 'string' ? body.includes(text) : text.test(body);
    },
    timeout,
  );
}

/** Waits for an element, then clicks it. */
export async function clickWhenShown(
  engine: Engine,
  role: Role,
  name: Name,
  timeout = 15_000,
): Promise<void> {
  await waitUntil(`${role} '${String(name)}'`, () => engine.has(role, name), timeout);
  await engine.click(role, name);
}

/**
 * Records the page's uncaught errors from when the driver can install it, after each load: a classic WebDriver
 * session has no event for them (nor a script run before the page's own).
 */
const ERROR_TRAP = `
  window.__novusErros = window.__novusErros || [];
  addEventListener('error', (event) => window.__novusErros.push(String(event.message)));
  addEventListener('unhandledrejection', (event) => window.__novusErros.push(String(event.reason)));
`;

// ——— Firefox over WebDriver BiDi ———

class FirefoxEngine implements Engine {
  readonly name = 'firefox';
  private readonly errors: string[] = [];

  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    readonly version: string,
  ) {
    page.on('pageerror', (error) => {
      const message = error instanceof Error ? error.message : String(error);
      // Firefox reports a load its service worker answered with a failure (a tile out of the downloaded area,
      // offline) as the page's error; it is the network's answer, not the page's code.
      if (!message.startsWith('Failed to load ‘')) this.errors.push(message);
    });
    // 'Sincronizar' asks before it starts (SPEC.md): the technician says yes, as acceptDialogs does in Chromium.
    page.on('dialog', (dialog) => {
      // a prompt the page closed meanwhile (a reload) is gone already
      dialog.accept().catch(() => undefined);
    });
  }

  static async launch(viewport: Viewport = PHONE): Promise<FirefoxEngine> {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_BINARY,
      headless: true,
      protocol: 'webDriverBiDi',
      extraPrefsFirefox: {
        // the app's own fallbacks are what the journeys check: no prompt for notifications or storage
        'dom.webnotifications.enabled': false,
        'permissions.default.persistent-storage': 2,
      },
    });
    const page = await browser.newPage();
    await page.setViewport(viewport);
    return new FirefoxEngine(browser, page, await browser.version());
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
  }

  async reload(): Promise<void> {
    await this.page.reload();
  }

  async evaluate<T>(script: string, ...args: unknown[]): Promise<T> {
    return (await this.page.evaluate(`(${script})(...${JSON.stringify(args)})`)) as T;
  }

  private async find(role: string, name: Name): Promise<ElementHandle<Element>> {
    const handle = await this.page.evaluateHandle(
      `(${FIND_SOURCE})(${JSON.stringify(role)}, ${JSON.stringify(nameArg(name))})`,
    );
    const element = handle.asElement() as ElementHandle<Element> | null;
    if (element === null) throw new Error(`no ${role} '${String(name)}' on the page`);
    return element;
  }

  async has(role: Role, name: Name): Promise<boolean> {
    return this.evaluate<boolean>(
      `(role, name) => (${FIND_SOURCE})(role, name) !== null`,
      role,
      nameArg(name),
    );
  }

  async click(role: Role, name: Name): Promise<void> {
    await (await this.find(role, name)).click();
  }

  async check(name: Name): Promise<void> {
    await waitUntil(`'${String(name)}' ticked`, async () => {
      const box = await this.find('checkbox', name);
      if (await box.evaluate((input) => (input as HTMLInputElement).checked)) return true;
      await box.click();
      return false;
    });
  }

  async clickInside(selector: string, fx: number, fy: number): Promise<void> {
    const element = await this.page.$(selector);
    const box = await element?.boundingBox();
    if (!box) throw new Error(`${selector} is not on the page`);
    await this.page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
  }

  async fill(label: string, value: string): Promise<void> {
    const field = await this.find('field', label);
    await field.click({ count: 3 });
    await field.evaluate((input) => ((input as HTMLInputElement).value = ''));
    await field.type(value);
  }

  async select(label: string, value: string): Promise<void> {
    const field = (await this.find('field', label)) as ElementHandle<HTMLSelectElement>;
    await field.select(value);
  }

  async setFile(label: string, file: string): Promise<void> {
    const input = (await this.find('file', label)) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
  }

  async screenshot(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file as `${string}.png`, fullPage: true });
  }

  async pageErrors(): Promise<string[]> {
    return [...this.errors];
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

// ——— WebKitGTK over classic WebDriver ———

class WebKitEngine implements Engine {
  readonly name = 'webkit';

  private constructor(
    private readonly driverProcess: ChildProcess,
    private readonly driver: WebDriver,
    readonly version: string,
  ) {}

  static async launch(viewport: Viewport = PHONE): Promise<WebKitEngine> {
    const port = await freePort();
    // WebKitWebDriver serves one session: a driver (and its Xvfb display) per window.
    const driverProcess = spawn(
      'xvfb-run',
      ['-a', '-s', '-screen 0 1280x1024x24', WEBKIT_DRIVER, `--port=${port}`],
      {
        stdio: 'ignore',
        detached: true,
      },
    );
    const server = `http://127.0.0.1:${port}`;
    await waitUntil('WebKitWebDriver', () =>
      fetch(`${server}/status`).then(
        (response) => response.ok,
        () => false,
      ),
    );
    const driver = await new Builder()
      .usingServer(server)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: WEBKIT_BROWSER, args: ['--automation'] },
        // 'Sincronizar' asks before it starts (SPEC.md): the technician says yes
        unhandledPromptBehavior: 'accept',
      })
      .build();
    await driver.manage().window().setRect({ width: viewport.width, height: viewport.height });
    const version = String((await driver.getCapabilities()).get('browserVersion') ?? '');
    return new WebKitEngine(driverProcess, driver, `WebKitGTK ${version}`);
  }

  private async trapErrors(): Promise<void> {
    await this.driver.executeScript(ERROR_TRAP);
  }

  async goto(url: string): Promise<void> {
    await this.driver.get(url);
    await this.trapErrors();
  }

  async reload(): Promise<void> {
    await this.driver.navigate().refresh();
    await this.trapErrors();
  }

  async evaluate<T>(script: string, ...args: unknown[]): Promise<T> {
    // executeAsyncScript: a promise the script answers is awaited in the page
    return (await this.driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve((${script})(...${JSON.stringify(args)})).then(done, (error) => done({ __erro: String(error) }));`,
    )) as T;
  }

  private async find(role: string, name: Name): Promise<WebElement> {
    const element = (await this.driver.executeScript(
      `return (${FIND_SOURCE})(arguments[0], arguments[1]);`,
      role,
      nameArg(name),
    )) as WebElement | null;
    if (element === null) throw new Error(`no ${role} '${String(name)}' on the page`);
    return element;
  }

  async has(role: Role, name: Name): Promise<boolean> {
    return (await this.driver.executeScript(
      `return (${FIND_SOURCE})(arguments[0], arguments[1]) !== null;`,
      role,
      nameArg(name),
    )) as boolean;
  }

  async click(role: Role, name: Name): Promise<void> {
    // WebKitWebDriver (2.50, in Xvfb) refuses clicks as intercepted where the page's own hit test finds the very
    // element under its centre: its point is off by the window's chrome. Then the page is asked, and when nothing
    // covers the element it is clicked there (a DOM click: what a tap on it would do), as a user could.
    let refused: unknown;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const element = await this.find(role, name);
      try {
        await element.click();
        return;
      } catch (error) {
        if (!(error instanceof Error) || !/Intercepted|NotInteractable/.test(error.name)) throw error;
        refused = error;
      }
      const clicked = (await this.driver.executeScript(
        `const element = arguments[0];
         element.scrollIntoView({ block: 'center' });
         const box = element.getBoundingClientRect();
         const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
         const label = element.labels && element.labels[0];
         if (!top || !(element.contains(top) || (label && label.contains(top)))) return false;
         element.click();
         return true;`,
        element,
      )) as boolean;
      if (clicked) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw refused;
  }

  async check(name: Name): Promise<void> {
    await waitUntil(`'${String(name)}' ticked`, async () => {
      if (await (await this.find('checkbox', name)).isSelected()) return true;
      await this.click('checkbox', name);
      return false;
    });
  }

  async clickInside(selector: string, fx: number, fy: number): Promise<void> {
    const element = await this.driver.findElement({ css: selector });
    const rect = await element.getRect();
    // W3C actions place the pointer relative to the element's centre
    await this.driver
      .actions({ async: true })
      .move({
        origin: element,
        x: Math.round(rect.width * (fx - 0.5)),
        y: Math.round(rect.height * (fy - 0.5)),
      })
      .click()
      .perform();
  }

  async fill(label: string, value: string): Promise<void> {
    const field = await this.find('field', label);
    await field.clear();
    await field.sendKeys(value);
  }

  async select(label: string, value: string): Promise<void> {
    const field = await this.find('field', label);
    await field.click();
    await (await field.findElement({ css: `option[value="${value}"]` })).click();
  }

  async setFile(label: string, file: string): Promise<void> {
    await (await this.find('file', label)).sendKeys(file);
  }

  async screenshot(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await this.driver.takeScreenshot(), 'base64'));
  }

  async pageErrors(): Promise<string[]> {
    return ((await this.driver.executeScript('return window.__novusErros || [];')) as string[]) ?? [];
  }

  async close(): Promise<void> {
    await this.driver.quit().catch(() => undefined);
    if (this.driverProcess.pid !== undefined) {
      try {
        process.kill(-this.driverProcess.pid, 'SIGTERM'); // xvfb-run, its Xvfb and the driver
      } catch {
        // already gone
      }
    }
  }
}

export async function launchEngine(name: EngineName, viewport: Viewport = PHONE): Promise<Engine> {
  return name === 'firefox' ? FirefoxEngine.launch(viewport) : WebKitEngine.launch(viewport);
}
