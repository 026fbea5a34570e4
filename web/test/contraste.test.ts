// 'Alto contraste' (issue 26): remembered on the device, and every text colour of its theme at 7:1 or more.
import { describe, expect, it } from 'vitest';
import { getContrastRatio, lighten, type Theme } from '@mui/material/styles';
import { theme } from '../src/app/theme';
import { ALTO_CONTRASTE_KEY, readAltoContraste, writeAltoContraste } from '../src/technician/contraste';
import {
  ALTO_CONTRASTE_BUTTON_HEIGHT,
  technicianAltoContrasteTheme,
  technicianTheme,
} from '../src/technician/technician-theme';
import { MemoryStorage } from './support/memory-storage';

describe('the choice on the device', () => {
  it('is off until turned on, and stays as the technician left it', () => {
    const storage = new MemoryStorage();
    expect(readAltoContraste(storage)).toBe(false);
    expect(writeAltoContraste(storage, true)).toBe(true);
    expect(storage.getItem(ALTO_CONTRASTE_KEY)).toBe('sim');
    expect(readAltoContraste(storage)).toBe(true);
    expect(writeAltoContraste(storage, false)).toBe(true);
    expect(storage.getItem(ALTO_CONTRASTE_KEY)).toBeNull();
    expect(readAltoContraste(storage)).toBe(false);
  });

  it('a full storage refuses the write without an error (the theme still changes for the visit)', () => {
    const empty = new MemoryStorage();
    empty.refuse = true;
    expect(writeAltoContraste(empty, true)).toBe(false);
    expect(readAltoContraste(empty)).toBe(false);
  });

  it('a storage that cannot be read gives the normal theme', () => {
    const broken = new MemoryStorage();
    broken.getItem = () => {
      throw new DOMException('negado', 'SecurityError');
    };
    expect(readAltoContraste(broken)).toBe(false);
  });
});

const normal = technicianTheme(theme);
const alto = technicianAltoContrasteTheme(theme);
const SEVERITIES = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;

function buttonRoot(t: Theme): Record<string, unknown> {
  const root: unknown = t.components?.MuiButton?.styleOverrides?.root;
  if (typeof root !== 'object' || root === null) throw new Error('no MuiButton root override');
  return { ...root };
}

describe('the high-contrast theme', () => {
  it('puts text on white and on the paper at 7:1: body, secondary, disabled', () => {
    const { text, background } = alto.palette;
    for (const surface of [background.default, background.paper, '#ffffff']) {
      expect(getContrastRatio(text.primary, surface)).toBeGreaterThanOrEqual(7);
      expect(getContrastRatio(text.secondary, surface)).toBeGreaterThanOrEqual(7);
      expect(getContrastRatio(text.disabled, surface)).toBeGreaterThanOrEqual(7);
    }
  });

  it.each(SEVERITIES)(
    '%s: its colour as text on white, and white (its contrast text) on it and on its hover shade',
    (name) => {
      const color = alto.palette[name];
      expect(getContrastRatio(color.main, '#ffffff')).toBeGreaterThanOrEqual(7);
      expect(color.contrastText).toBe('#fff');
      expect(getContrastRatio(color.contrastText, color.main)).toBeGreaterThanOrEqual(7);
      expect(getContrastRatio(color.contrastText, color.dark)).toBeGreaterThanOrEqual(7);
      // a filled alert (the saved-record snackbar) writes getContrastText(main) on main
      expect(getContrastRatio(alto.palette.getContrastText(color.main), color.main)).toBeGreaterThanOrEqual(
        7,
      );
    },
  );

  it.each(['error', 'warning', 'info', 'success'] as const)(
    'a standard %s alert: black text on its tinted background',
    (name) => {
      const background = lighten(alto.palette[name].light, 0.9);
      expect(getContrastRatio('#000000', background)).toBeGreaterThanOrEqual(7);
    },
  );

  it('a disabled button is still readable: on its grey (contained) and on white (outlined, text)', () => {
    const { action } = alto.palette;
    // getContrastRatio ignores transparency: MUI's own rgba(0, 0, 0, 0.26) would measure 21:1
    expect(action.disabled).toMatch(/^#[0-9a-f]{6}$/);
    expect(action.disabledBackground).toMatch(/^#[0-9a-f]{6}$/);
    expect(getContrastRatio(action.disabled, action.disabledBackground)).toBeGreaterThanOrEqual(7);
    expect(getContrastRatio(action.disabled, '#ffffff')).toBeGreaterThanOrEqual(7);
  });

  it('the normal theme does not pass 7:1 everywhere (so the checks above measure something)', () => {
    expect(getContrastRatio(normal.palette.primary.main, '#ffffff')).toBeLessThan(7);
    expect(getContrastRatio(normal.palette.success.main, '#ffffff')).toBeLessThan(7);
  });

  it('makes the buttons 56 px high; the normal technician theme keeps 48', () => {
    expect(ALTO_CONTRASTE_BUTTON_HEIGHT).toBeGreaterThanOrEqual(56);
    expect(buttonRoot(alto)['&&']).toEqual({ minHeight: ALTO_CONTRASTE_BUTTON_HEIGHT });
    expect(buttonRoot(normal).minHeight).toBe(48);
    // the rest of the technician theme is kept under high contrast
    expect(alto.components?.MuiListItemButton).toEqual(normal.components?.MuiListItemButton);
    expect(alto.components?.MuiInputBase).toEqual(normal.components?.MuiInputBase);
  });
});
