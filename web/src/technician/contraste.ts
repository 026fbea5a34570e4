// 'Alto contraste' (issue 26, outdoors): the technician's choice, kept on this device across visits and logins.

export const ALTO_CONTRASTE_KEY = 'novus.altoContraste';
export const ALTO_CONTRASTE_LABEL = 'Alto contraste';

/** A storage that cannot be read (private mode, a full quota) gives the normal theme, never an error. */
export function readAltoContraste(storage: Storage): boolean {
  try {
    return storage.getItem(ALTO_CONTRASTE_KEY) === 'sim';
  } catch {
    return false;
  }
}

/** Returns whether the choice was kept; a refused write still switches the theme for this visit. */
export function writeAltoContraste(storage: Storage, on: boolean): boolean {
  try {
    if (on) storage.setItem(ALTO_CONTRASTE_KEY, 'sim');
    else storage.removeItem(ALTO_CONTRASTE_KEY);
    return true;
  } catch {
    return false;
  }
}
