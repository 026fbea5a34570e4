// The home's one-time hint on iOS (issue 25): Safari erases a site's storage, pending records included, after 7 days
// without a visit, unless the site was added to the home screen; there it is an app and keeps its data.

export const INSTALL_HINT_TEXTS = {
  hint:
    'Para não perder registros, adicione o Novus à Tela de Início: toque em Compartilhar e depois em ' +
    '“Adicionar à Tela de Início”. No iPhone e no iPad, os dados de sites fora da Tela de Início podem ser ' +
    'apagados após 7 dias sem uso.',
  dismiss: 'Entendi',
} as const;

/** Set once the technician tapped 'Entendi': the hint never shows again on this device. */
export const INSTALL_HINT_KEY = 'novus.dicaInstalarEntendida';

/** What the browser says of itself, read once (readBrowserTraits) so the rule is tested without a browser. */
export interface BrowserTraits {
  userAgent: string;
  maxTouchPoints: number;
  /** Safari's own flag, true only when opened from the home screen; other browsers do not have it. */
  standalone: boolean | undefined;
  /** `(display-mode: standalone)`: the installed app (the manifest's display) in any browser. */
  displayModeStandalone: boolean;
}

export function readBrowserTraits(win: Window = window): BrowserTraits {
  const nav: Navigator & { standalone?: boolean } = win.navigator;
  return {
    userAgent: nav.userAgent,
    maxTouchPoints: nav.maxTouchPoints ?? 0,
    standalone: nav.standalone,
    displayModeStandalone: win.matchMedia?.('(display-mode: standalone)').matches ?? false,
  };
}

/**
 * iPhone, iPad and iPod. Since iPadOS 13 an iPad's Safari says 'Macintosh' as a Mac does; a Mac has no touch
 * screen, so more than one touch point tells the iPad.
 */
export function isIos({
  userAgent,
  maxTouchPoints,
}: Pick<BrowserTraits, 'userAgent' | 'maxTouchPoints'>): boolean {
  return /\b(iPhone|iPad|iPod)\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1);
}

/** An iOS browser outside the app added to the home screen: the one whose storage expires after 7 days. */
export function isIosOutsideHomeScreen(traits: BrowserTraits): boolean {
  return isIos(traits) && traits.standalone !== true && !traits.displayModeStandalone;
}

/** A storage that cannot be read counts as not dismissed: the hint shows, and 'Entendi' hides it for the visit. */
function dismissed(storage: Storage): boolean {
  try {
    return storage.getItem(INSTALL_HINT_KEY) !== null;
  } catch {
    return false;
  }
}

export function shouldShowInstallHint(traits: BrowserTraits, storage: Storage): boolean {
  return isIosOutsideHomeScreen(traits) && !dismissed(storage);
}

/** Remembers 'Entendi'; a storage that refuses the write (full, private mode) only loses the memory of it. */
export function dismissInstallHint(storage: Storage, now: number = Date.now()): void {
  try {
    storage.setItem(INSTALL_HINT_KEY, new Date(now).toISOString());
  } catch {
    // the hint is hidden for this visit all the same
  }
}
