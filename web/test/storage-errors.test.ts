// A save refused for want of space tells the technician so in Portuguese (issue 12, storage nearly full).
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { isQuotaExceeded, saveErrorText, STORAGE_FULL_TEXT } from '../src/offline/storage';

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

  it('keeps any other error as it came', () => {
    expect(isQuotaExceeded(new Error('O número é obrigatório.'))).toBe(false);
    expect(saveErrorText(new Error('O número é obrigatório.'))).toBe('O número é obrigatório.');
    expect(saveErrorText('falhou')).toBe('falhou');
    expect(isQuotaExceeded(null)).toBe(false);
  });
});
