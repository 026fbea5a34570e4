// Business constants of SPEC.md section 9 that both the server and the app need.
export const APP_VERSION = '1.22.4';
export const LOCAL_DB_NAME = 'Novus';
export const LOCAL_DB_VERSION = 21;
/** The device's copies of what it sent (issue 39): a database of its own beside Novus. */
export const COPIAS_DB_NAME = 'NovusCopias';
export const GRID_PAGE_SIZE = 10;
export const BACKOFFICE_DRAWER_WIDTH = 240;
export const SIDE_DRAWER_WIDTH = 200;
/** Technicians work offline for weeks: a session lasts this long unless AUTH_TOKEN_DAYS says otherwise. */
export const DEFAULT_TOKEN_DAYS = 30;
/**
 * Issue 39: how many days a phone keeps a copy of what it sent (units, poles, trees, LPT, Grupo A leave the device once
 * the server has them), so a server restored from a backup is made whole by the next sync. Each project sets its own
 * (the project form's 'Cópias de segurança no aparelho (dias)'); this is the default, and the phone's for a project it
 * no longer has.
 */
export const RETENCAO_COPIAS_DIAS = 7;
/** The project setting's bounds: at least a day (with none, a restored server would have nothing to get back). */
export const RETENCAO_COPIAS_DIAS_MIN = 1;
export const RETENCAO_COPIAS_DIAS_MAX = 90;
