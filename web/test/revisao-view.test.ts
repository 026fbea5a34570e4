// The 'Revisão' screen's rules (issue 24): the filter it sends, dates in São Paulo's time, flags with their units,
// a record's fields labelled from its flow, pages, the keyboard, and the rejection form's checks. The list is
// rendered to markup (the web tests have no DOM).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ItemRevisao } from '@novus/domain/api/revisao';
import { FLAG_CODIGOS, FLAG_LABELS } from '@novus/domain/revisao';
import { reprovacaoErros } from '../src/backoffice/revisao/ReprovarDialog';
import { RevisaoTable } from '../src/backoffice/revisao/RevisaoTable';
import {
  aprovarTodosTexto,
  atalhoDe,
  camposDoRegistro,
  dataHoraTexto,
  filtroApi,
  FLAG_OPTIONS,
  flagTexto,
  juntarTecnicos,
  paginaTexto,
  passo,
  SEM_FILTROS,
} from '../src/backoffice/revisao/revisao-view';

const PROJETO = '0190a3c1-0000-7000-8000-000000000001';

function item(overrides: Partial<ItemRevisao> = {}): ItemRevisao {
  return {
    id: '0190a3c1-0000-7000-8000-00000000000a',
    fluxo: 'hc',
    projeto: PROJETO,
    tecnico: { id: '0190a3c1-0000-7000-8000-0000000000t1', nome: 'Paula Campos' },
    zona: 'Zona Centro',
    dataHora: Date.parse('2026-11-25T13:05:00Z'),
    sincronizadoEm: null,
    coordenadas: { lat: -25.435, lng: -49.275 },
    precisao: 22.5,
    dados: { numero: '321', tipoUnidade: 'SDU' },
    fotos: ['/api/fotos/abc'],
    flags: [{ codigo: 'precisao_baixa', valor: 22.5 }],
    revisao: { estado: 'pendente', versao: 1, comentario: null, campos: {}, revisor: null, em: null },
    ...overrides,
  };
}

describe('the filter sent', () => {
  it('leaves out what is not chosen and keeps the rest as the API names it', () => {
    expect(filtroApi(PROJETO, SEM_FILTROS)).toEqual({ projeto: PROJETO });
    expect(
      filtroApi(PROJETO, {
        ...SEM_FILTROS,
        fluxo: 'poste',
        dataInicio: '2026-11-01',
        flag: 'qualquer',
        estado: 'reprovado',
      }),
    ).toEqual({
      projeto: PROJETO,
      fluxo: 'poste',
      dataInicio: '2026-11-01',
      flag: 'qualquer',
      estado: 'reprovado',
    });
  });

  it("offers 'Qualquer sinalização', 'Sem sinalização' and every flag by its label", () => {
    expect(FLAG_OPTIONS.map((option) => option.label)).toEqual([
      'Qualquer sinalização',
      'Sem sinalização',
      ...FLAG_CODIGOS.map((codigo) => FLAG_LABELS[codigo]),
    ]);
  });
});

describe('what a row shows', () => {
  it("writes date and time in São Paulo's time, DD/MM/YYYY HH:mm", () => {
    expect(dataHoraTexto(Date.parse('2026-11-25T13:05:00Z'))).toBe('25/11/2026 10:05');
    expect(dataHoraTexto(Date.parse('2026-01-01T02:30:00Z'))).toBe('31/12/2025 23:30');
    expect(dataHoraTexto(null)).toBe('—');
  });

  it('writes a flag with its measure and unit, in Portuguese numbers', () => {
    expect(flagTexto({ codigo: 'precisao_baixa', valor: 22.54 })).toBe(
      'Precisão do GPS acima do limite: 22,5 m',
    );
    expect(flagTexto({ codigo: 'poucas_fotos', valor: 0 })).toBe('Fotos a menos: 0 fotos');
    expect(flagTexto({ codigo: 'foto_hora', valor: 75 })).toBe('Hora da foto distante do registro: 75 min');
    expect(flagTexto({ codigo: 'sem_precisao', valor: null })).toBe('Sem precisão do GPS');
  });

  it('lists the page with flow, technician, time, flags and state, and its place among the pages', () => {
    const html = renderToStaticMarkup(
      createElement(RevisaoTable, {
        registros: [item(), item({ id: 'b', flags: [], revisao: { ...item().revisao, estado: 'aprovado' } })],
        selecionado: 'b',
        onSelect: () => undefined,
        pagina: 2,
        total: 137,
        porPagina: 50,
        onPagina: () => undefined,
      }),
    );
    expect(html).toContain('Unidade');
    expect(html).toContain('Paula Campos');
    expect(html).toContain('25/11/2026 10:05');
    expect(html).toContain('Precisão do GPS acima do limite: 22,5 m');
    expect(html).toContain('Pendente');
    expect(html).toContain('Aprovado');
    expect(html).toContain('137 registros · Página 2 de 3');
    expect(html).toContain('aria-selected="true"');
  });
});

describe("a record's fields", () => {
  it("labels them as the flow's exports do, in the declaration's order, others after", () => {
    const campos = camposDoRegistro('hc', { extra: 'x', numero: '321', tipoUnidade: 'SDU', vazio: '' });
    expect(campos.map((campo) => [campo.nome, campo.label, campo.valor])).toEqual([
      ['tipoUnidade', 'TIPO_UNIDADE', 'SDU'],
      ['numero', 'NUMERO', '321'],
      ['extra', 'extra', 'x'],
      ['vazio', 'vazio', '—'],
    ]);
  });
});

describe('pages and moving', () => {
  it('counts pages of 50, at least one', () => {
    expect(paginaTexto(1, 0, 50)).toBe('Página 1 de 1');
    expect(paginaTexto(1, 50, 50)).toBe('Página 1 de 1');
    expect(paginaTexto(2, 51, 50)).toBe('Página 2 de 2');
  });

  it("goes to the next row, then the next page's first; back to the previous page's last; stops at the ends", () => {
    expect(passo(1, 3, 50, 1, 3)).toEqual({ kind: 'linha', index: 4 });
    expect(passo(1, -1, 50, 1, 3)).toEqual({ kind: 'linha', index: 0 });
    expect(passo(1, 49, 50, 1, 3)).toEqual({ kind: 'pagina', pagina: 2, ponta: 'primeira' });
    expect(passo(-1, 0, 50, 2, 3)).toEqual({ kind: 'pagina', pagina: 1, ponta: 'ultima' });
    expect(passo(1, 9, 10, 3, 3)).toBeNull();
    expect(passo(-1, 0, 10, 1, 3)).toBeNull();
  });

  it('says how many the bulk approval approves', () => {
    expect(aprovarTodosTexto(37)).toBe('Aprovar 37 registros?');
    expect(aprovarTodosTexto(1)).toBe('Aprovar 1 registro?');
  });

  it('offers every technician seen, once, by name', () => {
    const ana = { id: 'a', nome: 'Ana' };
    const bia = { id: 'b', nome: 'Bia' };
    expect(juntarTecnicos([bia], [{ tecnico: ana }, { tecnico: bia }, { tecnico: null }])).toEqual([
      ana,
      bia,
    ]);
  });
});

describe('the keyboard', () => {
  const key = (k: string, extra: Partial<Parameters<typeof atalhoDe>[0]> = {}) =>
    atalhoDe({ key: k, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra });

  it('approves with A, rejects with R, moves with N or J and K, either case', () => {
    expect([key('a'), key('A'), key('r'), key('n'), key('j'), key('k'), key('x')]).toEqual([
      'aprovar',
      'aprovar',
      'reprovar',
      'proximo',
      'proximo',
      'anterior',
      null,
    ]);
  });

  it('leaves the browser its own shortcuts', () => {
    expect(key('a', { ctrlKey: true })).toBeNull();
    expect(key('r', { metaKey: true })).toBeNull();
    expect(key('k', { altKey: true })).toBeNull();
  });
});

describe('the rejection form', () => {
  it('asks for the reason and for a word on each ticked field', () => {
    expect(reprovacaoErros('  ', {})).toEqual({ '': 'Informe o motivo da reprovação.' });
    expect(reprovacaoErros('Número errado', { numero: ' ' })).toEqual({
      numero: 'Diga o que está errado neste campo.',
    });
    expect(reprovacaoErros('Número errado', { numero: 'É 322' })).toEqual({});
  });
});
