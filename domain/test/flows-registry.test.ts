// The registry's facts that screens read instead of keeping their own tables (issue 21): the maps' style and the
// project form's file rules, each once per flow.
import { describe, expect, it } from 'vitest';
import { fusoNeededText } from '../src/flows/flow';
import { FLUXOS } from '../src/flows/keys';
import { FLOWS, PRELOADED_FLOWS } from '../src/flows/registry';

describe('the flow registry', () => {
  it('gives every flow its own map colour, and a place in the panel and in the paint order', () => {
    const colours = FLOWS.map((flow) => flow.map.color.toLowerCase());
    expect(new Set(colours).size).toBe(FLOWS.length);
    for (const colour of colours) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
    const places = (order: (typeof FLOWS)[number]['map']['panelOrder'][]) => [...order].sort((a, b) => a - b);
    const oneToNine = FLUXOS.map((_, index) => index + 1);
    expect(places(FLOWS.map((flow) => flow.map.panelOrder))).toEqual(oneToNine);
    expect(places(FLOWS.map((flow) => flow.map.paintOrder))).toEqual(oneToNine);
  });

  it("lists the spec's five layers always (units, poles, IP, Grupo A, BDGD), in that order", () => {
    const listed = FLOWS.filter((flow) => flow.map.alwaysListed)
      .sort((a, b) => a.map.panelOrder - b.map.panelOrder)
      .map((flow) => flow.map.layer);
    expect(listed).toEqual(['Unidades', 'Postes', 'Uso M./IP', 'Grupo A', 'BDGD']);
  });

  it("says each file's UTM zone, help and map colour: BDGD in the project's fuso, fiscalização in zone 22", () => {
    const rules = Object.fromEntries(
      PRELOADED_FLOWS.map(({ key, preload }) => [key, [preload.utmZone, preload.formMapColor]]),
    );
    expect(rules).toEqual({
      ip: [null, 'green'],
      bdgd: ['projeto', 'red'],
      fiscalizacao: [22, 'blue'],
      lpt2: [null, null],
    });
    const bdgd = PRELOADED_FLOWS.find((flow) => flow.key === 'bdgd')?.preload;
    expect(bdgd && fusoNeededText(bdgd)).toBe('Escolha o fuso do projeto antes de enviar o arquivo BDGD.');
    expect(bdgd?.help('')).toContain('Escolha o fuso do projeto antes de enviar o arquivo BDGD.');
    expect(bdgd?.help('23')).toContain('(fuso 23)');
    const fiscalizacao = PRELOADED_FLOWS.find((flow) => flow.key === 'fiscalizacao')?.preload;
    expect(fiscalizacao?.help('23')).toContain('fuso 22 banda L, qualquer que seja o fuso do projeto');
  });
});
