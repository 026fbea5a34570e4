// The export columns each flow declares: the fixed headers the README promises, and names a CSV can carry.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRODUCAO_HEADERS } from '../src/export/columns.ts';
import { FLOWS } from '../src/flows/registry.ts';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

const files = FLOWS.flatMap((flow) =>
  flow.exports.csv.map((csv) => ({
    flow: flow.key,
    id: csv.id,
    headers: csv.kind === 'producao' ? [...PRODUCAO_HEADERS] : csv.colunas.map((coluna) => coluna.header),
  })),
);

describe('export columns', () => {
  it.each(files)('documents the headers of $id in the README', ({ id, headers }) => {
    expect(readme).toContain(`(\`${id}.csv\``);
    expect(readme).toContain(`\`${headers.join(';')}\``);
  });

  it.each(files)('gives $id distinct, plain headers', ({ headers }) => {
    expect(new Set(headers).size).toBe(headers.length);
    for (const header of headers) expect(header).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it('names every file once across flows, so /api/extrator/{projeto}/{id}.csv finds one', () => {
    const ids = files.map((file) => file.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares as decimal the measures (UTM, heights, distances, diameters, loads, power) and nothing else', () => {
    const decimais = Object.fromEntries(
      FLOWS.flatMap((flow) =>
        flow.exports.csv.flatMap((csv) =>
          csv.kind === 'registros'
            ? [[csv.id, csv.colunas.filter((coluna) => coluna.decimal).map((coluna) => coluna.header)]]
            : [],
        ),
      ),
    );
    const utm = ['UTM_E', 'UTM_N'];
    expect(decimais).toEqual({
      unidades: utm,
      postes: [...utm, 'ALTURA'],
      'postes-simplificado': [...utm, 'ALTURA'],
      ip: utm,
      vegetacao: [...utm, 'DISTANCIA_REDE_BT', 'DISTANCIA_REDE_MT', 'DIAMETRO_TRONCO', 'ALTURA'],
      lpt: utm,
      'grupo-a': utm,
      bdgd: utm,
      fiscalizacao: [
        ...utm,
        'ALTURA',
        'ALTURA_CORRIGIDO',
        'CARGA',
        'CARGA_CORRIGIDO',
        'POTENCIA',
        'POTENCIA_CORRIGIDO',
      ],
      'lpt-agiltec': utm,
    });
  });

  it('starts every record file with which record, who, when and where', () => {
    for (const file of files.filter((file) => file.headers[0] === 'ID')) {
      expect(file.headers.slice(0, 5)).toEqual(['ID', 'TECNICO', 'DATA', 'UTM_E', 'UTM_N']);
    }
  });
});
