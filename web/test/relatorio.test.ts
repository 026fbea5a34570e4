// The Relatórios screen: the technicians' table of a day (flow columns, unique download names), the
// productivity table and its chart (rendered to markup: the web tests have no DOM).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Produtividade, RelatorioTecnico } from '@novus/domain/export/api';
import { ProdutividadeChart } from '../src/backoffice/relatorios/ProdutividadeChart';
import { ProdutividadeTable } from '../src/backoffice/relatorios/ProdutividadeTable';
import { RelatorioTable } from '../src/backoffice/relatorios/RelatorioTable';
import {
  fluxosComContagem,
  formatPercent,
  formatPrecisao,
  produtividadeSeries,
} from '../src/backoffice/relatorios/relatorio-view';

const ANA = { id: 't1', nome: 'Ana Souza' };
const BRUNO = { id: 't2', nome: 'Bruno Lima' };

function relatorio(
  tecnico: { id: string; nome: string },
  contagens: RelatorioTecnico['contagens'],
): RelatorioTecnico {
  const total = Object.values(contagens).reduce((sum, n) => sum + n, 0);
  return {
    tecnico,
    contagens,
    total,
    csv: `/api/relatorio/p1/${tecnico.id}.csv?data=2026-03-05`,
    kml: `/api/relatorio/p1/${tecnico.id}.kml?data=2026-03-05`,
  };
}

function produtividade(tecnico: { id: string; nome: string }, data: string, total: number): Produtividade {
  return {
    tecnico,
    data,
    contagens: { hc: total },
    total,
    // 08:00 and 17:30 in Brasília (UTC-3)
    primeiro: Date.parse(`${data}T11:00:00Z`),
    ultimo: Date.parse(`${data}T20:30:00Z`),
    precisaoMediana: 4.25,
    fotosCompletas: 0.85,
  };
}

/** The visible text of each cell of each row, markup stripped. */
function cells(html: string): string[][] {
  const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) => m[1]);
  return rows.map((row) =>
    [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) =>
      m[1]
        .replace(/<style[^>]*>.*?<\/style>/g, '')
        .replace(/<[^>]+>/g, '')
        .trim(),
    ),
  );
}

describe('the technicians of a day', () => {
  const rows = [relatorio(ANA, { hc: 12, poste: 3 }), relatorio(BRUNO, { poste: 1, ip: 1200 })];

  it('has a column per flow with records, in the registry’s order', () => {
    expect(fluxosComContagem(rows)).toEqual(['hc', 'poste', 'ip']);
    expect(fluxosComContagem([relatorio(ANA, { arvore: 0 })])).toEqual([]);
  });

  it('shows real headers, the counts and a CSV and a KML per technician with a name of its own', () => {
    const html = renderToStaticMarkup(createElement(RelatorioTable, { data: '2026-03-05', rows }));
    expect(html).toMatch(/<th[^>]*scope="col"[^>]*>Técnico<\/th>/);
    expect(cells(html)).toEqual([
      ['Técnico', 'Unidade', 'Poste', 'Uso Mútuo / IP', 'Total', 'Arquivos'],
      ['Ana Souza', '12', '3', '0', '15', 'CSVKMLGeoPackageXLSX'],
      ['Bruno Lima', '0', '1', '1.200', '1.201', 'CSVKMLGeoPackageXLSX'],
    ]);
    expect(html).toContain('aria-label="CSV de Ana Souza"');
    expect(html).toContain('aria-label="KML de Bruno Lima"');
    expect(html).toContain('href="/api/relatorio/p1/t1.csv?data=2026-03-05"');
    expect(html).toContain('href="/api/relatorio/p1/t2.kml?data=2026-03-05"');
  });
});

describe('productivity', () => {
  const rows = [
    produtividade(BRUNO, '2026-03-04', 10),
    produtividade(ANA, '2026-03-04', 5),
    produtividade(ANA, '2026-03-06', 20),
  ];

  it('writes precision with one decimal or a dash, and complete photos as a percent', () => {
    expect(formatPrecisao(4.25)).toBe('4,3');
    expect(formatPrecisao(null)).toBe('—');
    expect(formatPercent(0.85)).toBe('85%');
    expect(formatPercent(1)).toBe('100%');
  });

  it('lists each technician’s day', () => {
    const html = renderToStaticMarkup(createElement(ProdutividadeTable, { rows }));
    expect(cells(html)).toEqual([
      ['Técnico', 'Data', 'Registros', 'Primeiro', 'Último', 'Precisão mediana (m)', 'Fotos completas'],
      ['Bruno Lima', '04/03/2026', '10', '08:00', '17:30', '4,3', '85%'],
      ['Ana Souza', '04/03/2026', '5', '08:00', '17:30', '4,3', '85%'],
      ['Ana Souza', '06/03/2026', '20', '08:00', '17:30', '4,3', '85%'],
    ]);
  });

  it('charts records per day per technician, by name', () => {
    expect(produtividadeSeries(rows)).toEqual({
      dias: ['2026-03-04', '2026-03-06'],
      series: [
        { tecnico: ANA, valores: [5, 20] },
        { tecnico: BRUNO, valores: [10, 0] },
      ],
      maximo: 20,
    });
  });

  it('draws a named image with one bar segment per technician’s day', () => {
    const html = renderToStaticMarkup(createElement(ProdutividadeChart, { rows }));
    expect(html).toMatch(
      /<svg role="img" aria-labelledby="([^"]+)".*<title id="\1">Registros por dia e por técnico, de 04\/03\/2026 a 06\/03\/2026<\/title>/,
    );
    expect(html.match(/<rect /g)).toHaveLength(3);
    expect(html).toContain('<title>Ana Souza, 06/03/2026: 20</title>');
    expect(html).toMatch(/<li[^>]*>.*Ana Souza.*<\/li><li[^>]*>.*Bruno Lima/);
  });
});
