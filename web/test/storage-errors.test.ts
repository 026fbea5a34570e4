// A save refused for want of space tells the technician so in Portuguese (issue 12, storage nearly full); so does a
// private window that refuses photos, and any other failure of the device's database (issue 40).
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { isBlobRefused } from '../src/offline/idb-errors';
import { isConnectionLost } from '../src/offline/reopen';
import {
  isQuotaExceeded,
  PRIVATE_WINDOW_TEXT,
  saveErrorText,
  STORAGE_FAILED_TEXT,
  STORAGE_FULL_TEXT,
} from '../src/offline/storage';

describe('saveErrorText', () => {
  it('names a full device in Portuguese, as the browser or Dexie reports it', () => {
    const browser = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const dexie = new Dexie.QuotaExceededError('QuotaExceededError', browser);
    const wrapped = new Dexie.AbortError('Transaction aborted', dexie);
    for (const error of [browser, dexie, wrapped]) {
      expect(isQuotaExceeded(error)).toBe(true);
      expect(saveErrorText(error)).toBe(STORAGE_FULL_TEXT);
    }
    expect(STORAGE_FULL_TEXT).toMatch(/^Não há espaço no aparelho/);
  });

  it('names a private window in Portuguese, as WebKit refuses a Blob and Dexie reports it', () => {
    // WebKit before 2025 threw at once; since, the request fails (WebKitGTK 2.50's automation session does so).
    const older = new DOMException(
      'Failed to store record in an IDBObjectStore: BlobURLs are not yet supported.',
      'DataCloneError',
    );
    const newer = new DOMException(
      'Error preparing Blob/File data to be stored in object store',
      'UnknownError',
    );
    for (const [browser, dexie] of [
      [older, new Dexie.DataCloneError(older.message, older)],
      [newer, new Dexie.UnknownError(newer.message, newer)],
    ] as const) {
      for (const error of [browser, dexie, new Dexie.AbortError('Transaction aborted', dexie)]) {
        expect(isBlobRefused(error)).toBe(true);
        expect(saveErrorText(error)).toBe(PRIVATE_WINDOW_TEXT);
        // Not a lost connection: reopening the database would not help.
        expect(isConnectionLost(error)).toBe(false);
      }
    }
    expect(PRIVATE_WINDOW_TEXT).toBe(
      'Este navegador não guarda fotos em uma janela privada. Abra o Novus em uma janela normal ' +
        '(fora da navegação privada) para gravar registros.',
    );
  });

  it("says any other failure of the device's database in Portuguese, never in the browser's English", () => {
    const failures = [
      new DOMException(
        'Connection to Indexed Database server lost. Refresh the page to try again',
        'UnknownError',
      ),
      new Dexie.OpenFailedError('Database could not be opened'),
      new Dexie.DatabaseClosedError('Database has been closed'),
      new Dexie.AbortError('Transaction aborted', new DOMException('Key already exists', 'ConstraintError')),
      new DOMException('#<Object> could not be cloned.', 'DataCloneError'),
    ];
    for (const error of failures) {
      expect(isBlobRefused(error)).toBe(false);
      expect(saveErrorText(error)).toBe(STORAGE_FAILED_TEXT);
    }
    expect(STORAGE_FAILED_TEXT).toMatch(/^O aparelho não conseguiu gravar este registro\./);
  });

  it('keeps any other error as it came', () => {
    expect(isQuotaExceeded(new Error('O número é obrigatório.'))).toBe(false);
    expect(saveErrorText(new Error('O número é obrigatório.'))).toBe('O número é obrigatório.');
    expect(saveErrorText('falhou')).toBe('falhou');
    expect(saveErrorText(new Error('Registro não encontrado neste aparelho.'))).toBe(
      'Registro não encontrado neste aparelho.',
    );
    expect(isQuotaExceeded(null)).toBe(false);
    expect(isBlobRefused(null)).toBe(false);
  });
});
