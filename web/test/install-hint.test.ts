// The iOS hint to add Novus to the home screen: which browsers get it, and 'Entendi' for good.
import { describe, expect, it } from 'vitest';
import {
  type BrowserTraits,
  dismissInstallHint,
  INSTALL_HINT_KEY,
  isIos,
  isIosOutsideHomeScreen,
  shouldShowInstallHint,
} from '../src/offline/install-hint';
import { MemoryStorage } from './support/memory-storage';

/** Real user agents, as the browsers send them. */
const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  // Playwright's devices['iPhone 13']
  iphone13:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/27.2 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  ipadOld:
    'Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  // iPadOS 13 and later ask for desktop sites: the same string as Safari on a Mac
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  ipod: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  macChrome:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
} as const;

function traits(userAgent: string, changes: Partial<BrowserTraits> = {}): BrowserTraits {
  return { userAgent, maxTouchPoints: 0, standalone: undefined, displayModeStandalone: false, ...changes };
}

describe('iOS', () => {
  it('knows iPhones, iPads and iPods, whatever the browser (all of them are Safari underneath)', () => {
    expect(isIos(traits(UA.iphoneSafari, { maxTouchPoints: 5 }))).toBe(true);
    expect(isIos(traits(UA.iphone13, { maxTouchPoints: 5 }))).toBe(true);
    expect(isIos(traits(UA.iphoneChrome, { maxTouchPoints: 5 }))).toBe(true);
    expect(isIos(traits(UA.ipadOld, { maxTouchPoints: 5 }))).toBe(true);
    expect(isIos(traits(UA.ipod, { maxTouchPoints: 5 }))).toBe(true);
  });

  it('tells an iPad asking for desktop sites from a Mac by its touch screen', () => {
    expect(isIos(traits(UA.macSafari, { maxTouchPoints: 5 }))).toBe(true);
    expect(isIos(traits(UA.macSafari, { maxTouchPoints: 0 }))).toBe(false);
    expect(isIos(traits(UA.macChrome, { maxTouchPoints: 0 }))).toBe(false);
  });

  it('leaves out Android and desktops, touch screens or not', () => {
    expect(isIos(traits(UA.androidChrome, { maxTouchPoints: 5 }))).toBe(false);
    expect(isIos(traits(UA.desktopChrome, { maxTouchPoints: 0 }))).toBe(false);
    expect(isIos(traits(UA.desktopChrome, { maxTouchPoints: 10 }))).toBe(false);
  });
});

describe('outside the home screen', () => {
  it('is Safari in a tab', () => {
    expect(isIosOutsideHomeScreen(traits(UA.iphoneSafari, { maxTouchPoints: 5, standalone: false }))).toBe(
      true,
    );
    expect(isIosOutsideHomeScreen(traits(UA.macSafari, { maxTouchPoints: 5, standalone: false }))).toBe(true);
  });

  it('is not the app opened from the home screen', () => {
    // Safari's own flag
    expect(isIosOutsideHomeScreen(traits(UA.iphoneSafari, { maxTouchPoints: 5, standalone: true }))).toBe(
      false,
    );
    // the manifest's display mode
    expect(
      isIosOutsideHomeScreen(traits(UA.iphoneSafari, { maxTouchPoints: 5, displayModeStandalone: true })),
    ).toBe(false);
  });

  it('is never Android or a desktop, installed or not', () => {
    expect(isIosOutsideHomeScreen(traits(UA.androidChrome, { maxTouchPoints: 5 }))).toBe(false);
    expect(isIosOutsideHomeScreen(traits(UA.desktopChrome))).toBe(false);
  });
});

describe('the hint', () => {
  const iphone = traits(UA.iphoneSafari, { maxTouchPoints: 5, standalone: false });

  it('shows until Entendi, then never again', () => {
    const storage = new MemoryStorage();
    expect(shouldShowInstallHint(iphone, storage)).toBe(true);
    dismissInstallHint(storage, Date.UTC(2026, 0, 2));
    expect(storage.getItem(INSTALL_HINT_KEY)).toBe('2026-01-02T00:00:00.000Z');
    expect(shouldShowInstallHint(iphone, storage)).toBe(false);
  });

  it('never shows where it is not needed', () => {
    expect(shouldShowInstallHint(traits(UA.androidChrome, { maxTouchPoints: 5 }), new MemoryStorage())).toBe(
      false,
    );
    expect(shouldShowInstallHint({ ...iphone, standalone: true }, new MemoryStorage())).toBe(false);
  });

  it('survives a storage that refuses the write: hidden for the visit, shown again on the next', () => {
    const storage = new MemoryStorage();
    storage.refuse = true;
    expect(() => dismissInstallHint(storage)).not.toThrow();
    expect(shouldShowInstallHint(iphone, storage)).toBe(true);
  });
});
