// The Extrator's calls and what it shows for an answer: paths and query strings, refused answers, the three
// skeletons, and which files get a download link (rendered to markup: the web tests have no DOM).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { getExtracao, listDatas } from '@novus/domain/api/extrator';
import { listProdutividade, listRelatorio } from '@novus/domain/api/relatorios';
import type { Arquivo, Extracao } from '@novus/domain/export/api';
import { ApiClient } from '../src/api/client';
import { produtividadeCsvUrl } from '../src/api/extrator';
import { arquivoText } from '../src/backoffice/extrator/ArquivoButton';
import { formatDia, formatHora, formatNumero, isoDate } from '../src/backoffice/extrator/datas';
import { csvComRegistros, ExtracaoFiles } from '../src/backoffice/extrator/ExtracaoFiles';
import { LoadContent } from '../src/backoffice/extrator/LoadContent';

/** A server that answers `body` to every call and remembers what was asked. */
function fakeApi(body: unknown, status = 200) {
  const asked: string[] = [];
  const api = new ApiClient({
    fetchFn: async (input) => {
      asked.push(String(input));
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    },
  });
  return { api, asked };
}

function arquivo(id: string, label: string, registros: number, extension = 'csv'): Arquivo {
  return {
    id,
    label,
    url: `/api/extrator/p1/${id}.${extension}?dataInicio=2026-03-01&dataFim=2026-03-31`,
    nome: `Projeto X - ${label}.${extension}`,
    registros,
  };
}

function extracao(extra: Partial<Extracao> = {}): Extracao {
  return {
    projeto: { id: '5f0c2a6e-1b2d-4c3e-8f4a-0b1c2d3e4f50', nome: 'Projeto X', fuso: 22 },
    kml: [arquivo('postes', 'Postes', 12, 'kml'), arquivo('bdgd', 'BDGD', 0, 'zip')],
    csv: [
      arquivo('unidades', 'Unidades', 1234),
      arquivo('postes', 'Postes', 0),
      arquivo('ip-ana', 'Uso Mútuo/IP - Ana', 7),
    ],
    fotos: arquivo('fotos', 'Fotos (zip)', 40, 'zip'),
    erro: null,
    ...extra,
  };
}

const render = (extra: Partial<Extracao> = {}, comDatas = true) =>
  renderToStaticMarkup(createElement(ExtracaoFiles, { extracao: extracao(extra), comDatas }));

const hrefs = (html: string) =>
  [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));

describe('the Extrator calls', () => {
  it('asks for a project’s days and reads them', async () => {
    const { api, asked } = fakeApi([{ ano: 2026, mes: 3, dia: 5, data: { ano: 2026, mes: 3, dia: 5 } }]);
    const datas = await api.call(listDatas, { params: { id: 'p 1' } });
    expect(asked).toEqual(['/api/projeto/p%201/datas']);
    expect(datas.map(isoDate)).toEqual(['2026-03-05']);
  });

  it('passes the range only when it has one', async () => {
    const { api, asked } = fakeApi(extracao());
    await api.call(getExtracao, {
      params: { projeto: 'p1' },
      query: { dataInicio: '2026-03-01', dataFim: '2026-03-31' },
    });
    await api.call(getExtracao, { params: { projeto: 'p1' }, query: {} });
    expect(asked).toEqual(['/api/extrator/p1?dataInicio=2026-03-01&dataFim=2026-03-31', '/api/extrator/p1']);
  });

  it('refuses an answer that is not an Extracao', async () => {
    const { api } = fakeApi({ kml: [], csv: 'nada' });
    await expect(api.call(getExtracao, { params: { projeto: 'p1' }, query: {} })).rejects.toThrow();
  });

  it('builds the report paths, the CSV link included', async () => {
    const { api, asked } = fakeApi([]);
    await api.call(listRelatorio, { params: { projeto: 'p1' }, query: { data: '2026-03-05' } });
    await api.call(listProdutividade, {
      params: { projeto: 'p1' },
      query: { dataInicio: '2026-03-01', dataFim: '2026-03-05' },
    });
    expect(asked).toEqual([
      '/api/relatorio/p1?data=2026-03-05',
      '/api/relatorio/p1/produtividade?dataInicio=2026-03-01&dataFim=2026-03-05',
    ]);
    expect(produtividadeCsvUrl('p1', { dataInicio: '2026-03-01', dataFim: '2026-03-05' })).toBe(
      '/api/relatorio/p1/produtividade.csv?dataInicio=2026-03-01&dataFim=2026-03-05',
    );
  });
});

describe('what the Extrator writes', () => {
  it('writes days DD/MM/YYYY, times HH:mm in Brasília and counts pt-BR', () => {
    expect(isoDate({ ano: 2026, mes: 3, dia: 5 })).toBe('2026-03-05');
    expect(formatDia('2026-03-05')).toBe('05/03/2026');
    expect(formatHora(Date.UTC(2026, 2, 5, 11, 7))).toBe('08:07');
    expect(formatNumero(1234)).toBe('1.234');
    expect(arquivoText(arquivo('unidades', 'Unidades', 1234))).toBe('Unidades (1.234)');
  });
});

describe('the Extrator’s files', () => {
  it('offers every KML the server lists and only the CSV files with rows', () => {
    expect(csvComRegistros(extracao().csv).map((a) => a.id)).toEqual(['unidades', 'ip-ana']);
    const html = render();
    expect(hrefs(html)).toEqual([
      '/api/extrator/p1/postes.kml?dataInicio=2026-03-01&dataFim=2026-03-31',
      '/api/extrator/p1/bdgd.zip?dataInicio=2026-03-01&dataFim=2026-03-31',
      '/api/extrator/p1/unidades.csv?dataInicio=2026-03-01&dataFim=2026-03-31',
      '/api/extrator/p1/ip-ana.csv?dataInicio=2026-03-01&dataFim=2026-03-31',
      '/api/extrator/p1/fotos.zip?dataInicio=2026-03-01&dataFim=2026-03-31',
    ]);
    expect(html).toContain('download="Projeto X - Unidades.csv"');
    expect(html).toContain('Unidades (1.234)');
    expect(html).toContain('Fotos (zip) (40)');
    expect(html).toMatch(/<h2[^>]*>KML<\/h2>/);
    expect(html).toMatch(/<h2[^>]*>CSV<\/h2>/);
  });

  it('shows no photo button without photos, and the server’s warning above the CSV', () => {
    const html = render({
      fotos: null,
      erro: 'O projeto não tem fuso: defina-o para extrair coordenadas UTM.',
    });
    expect(html).not.toContain('fotos.zip');
    const alert = html.indexOf('O projeto não tem fuso');
    expect(alert).toBeGreaterThan(html.indexOf('>KML</h2>'));
    expect(alert).toBeLessThan(html.indexOf('>CSV</h2>'));
    expect(html).toContain('MuiAlert-standardWarning');
  });

  it('offers the KML files of a project with no records yet, and no CSV section', () => {
    const semRegistros = (a: Arquivo): Arquivo => ({ ...a, url: a.url.replace(/\?.*$/, ''), registros: 0 });
    const vazio = extracao();
    const html = render(
      {
        kml: vazio.kml.map(semRegistros),
        csv: vazio.csv.map(semRegistros),
        fotos: null,
        erro: 'O projeto não tem fuso: defina-o para extrair coordenadas UTM.',
      },
      false,
    );
    expect(html).toMatch(/<h2[^>]*>KML<\/h2>/);
    expect(hrefs(html)).toEqual(['/api/extrator/p1/postes.kml', '/api/extrator/p1/bdgd.zip']);
    expect(html).toContain('download="Projeto X - Postes.kml"');
    expect(html).toContain('Não há dados a serem exibidos');
    expect(html).not.toContain('>CSV</h2>');
    expect(html).not.toContain('O projeto não tem fuso');
  });

  it('says so when no CSV has rows', () => {
    const html = render({ csv: [arquivo('unidades', 'Unidades', 0)] });
    expect(html).toContain('Nenhum arquivo CSV com registros no período.');
    expect(html).not.toContain('unidades.csv');
  });
});

describe('a load on these screens', () => {
  const show = (load: Parameters<typeof LoadContent<string>>[0]['load']) =>
    renderToStaticMarkup(
      createElement(LoadContent<string>, {
        load,
        loadingLabel: 'Carregando arquivos',
        children: (v: string) => v,
      }),
    );

  it('shows exactly three skeletons while it runs', () => {
    const html = show({ status: 'loading' });
    expect(html.match(/<span class="MuiSkeleton-root/g)).toHaveLength(3);
    expect(html).toContain('aria-label="Carregando arquivos"');
  });

  it('shows the failure’s message as an error, then the content', () => {
    expect(show({ status: 'failed', message: 'Projeto não encontrado.' })).toMatch(
      /MuiAlert-standardError[^>]*>.*Projeto não encontrado\./,
    );
    expect(show({ status: 'done', value: 'pronto' })).toBe('pronto');
    expect(show({ status: 'idle' })).toBe('');
  });
});
