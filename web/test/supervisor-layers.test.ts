import { describe, expect, it } from 'vitest';
import { STATUS } from '@novus/domain/mapa/api';
import {
  ALL_LAYERS_MASK,
  allVisible,
  layerOf,
  listedLayers,
  maskOf,
  PAINT_RANKS,
  paintOfRank,
  paintRank,
  pointPaint,
  textColorOn,
} from '../src/backoffice/supervisor/layers';

const NONE = { hc: 0, poste: 0, ip: 0, arvore: 0, lpt: 0, grupoA: 0, bdgd: 0, fiscalizacao: 0, lpt2: 0 };

describe('supervisor layers', () => {
  it('lists the spec five always and the other flows only when they have points', () => {
    expect(listedLayers(NONE)).toEqual(['hc', 'poste', 'ip', 'grupoA', 'bdgd']);
    expect(listedLayers({ ...NONE, lpt2: 3, arvore: 1 })).toEqual([
      'hc',
      'poste',
      'ip',
      'grupoA',
      'bdgd',
      'arvore',
      'lpt2',
    ]);
  });

  it('turns the ticked layers into the bit mask the worker filters by', () => {
    expect(maskOf(allVisible())).toBe(ALL_LAYERS_MASK);
    const semPostes = maskOf({ ...allVisible(), poste: false });
    expect(semPostes & (1 << layerOf('poste'))).toBe(0);
    expect(semPostes & (1 << layerOf('hc'))).not.toBe(0);
  });

  it('paints IP hollow until collected, and rings a point in conflict', () => {
    expect(pointPaint('ip', 0)).toEqual({ color: '#2e7d32', hollow: true, conflito: false });
    expect(pointPaint('ip', STATUS.coletado)).toEqual({ color: '#2e7d32', hollow: false, conflito: false });
    expect(pointPaint('hc', 0).hollow).toBe(false);
    expect(pointPaint('poste', STATUS.coletado | STATUS.conflito)).toEqual({
      color: '#c62828',
      hollow: false,
      conflito: true,
    });
  });

  it('paints the preloaded backdrop first and units last', () => {
    expect(paintRank('ip', true)).toBeLessThan(paintRank('ip', false));
    expect(paintRank('bdgd', false)).toBeLessThan(paintRank('poste', false));
    expect(paintRank('hc', false)).toBe(PAINT_RANKS - 1);
    for (let rank = 0; rank < PAINT_RANKS; rank += 1) {
      const { fluxo, hollow } = paintOfRank(rank);
      expect(paintRank(fluxo, hollow)).toBe(rank);
    }
  });

  it('writes a cluster count in the colour that reads better on the layer', () => {
    expect(textColorOn('#1565c0')).toBe('#ffffff');
    expect(textColorOn('#00bcd4')).toBe('#000000');
    expect(textColorOn('#5d4037')).toBe('#ffffff');
  });
});
