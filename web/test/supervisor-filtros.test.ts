import { describe, expect, it } from 'vitest';
import type { PontoEvento } from '@novus/domain/mapa/api';
import {
  diaLocal,
  eventoPassa,
  mapaFiltros,
  tecnicoOptions,
  TODOS_FILTROS,
} from '../src/backoffice/supervisor/filtros';
import {
  fotosPath,
  popupCampos,
  popupColetas,
  type Registro,
  SEM_VALOR,
} from '../src/backoffice/supervisor/popup-content';

const ANA = { id: 'u-ana', nome: 'Ana Souza' };
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();

function evento(partial: Partial<PontoEvento> = {}): PontoEvento {
  return {
    fluxo: 'poste',
    id: '0190a6c2-7b3e-7c1d-9f00-000000000001',
    lat: -25.43,
    lng: -49.27,
    status: 1,
    tecnico: 'Ana Souza',
    dataHora: at(2026, 3, 10),
    ...partial,
  };
}

describe('supervisor filters', () => {
  it('sends the technician by id and leaves out what is not chosen', () => {
    expect(mapaFiltros(TODOS_FILTROS)).toEqual({ tecnico: '', dataInicio: '', dataFim: '' });
    expect(mapaFiltros({ tecnico: ANA, dataInicio: '2026-03-01', dataFim: '' })).toEqual({
      tecnico: 'u-ana',
      dataInicio: '2026-03-01',
      dataFim: '',
    });
  });

  it('reads an instant as its local day', () => {
    expect(diaLocal(at(2026, 1, 5, 23))).toBe('2026-01-05');
  });

  it('lets a live point in only when it passes the technician and the period, both ends included', () => {
    expect(eventoPassa(evento(), TODOS_FILTROS)).toBe(true);
    expect(eventoPassa(evento(), { ...TODOS_FILTROS, tecnico: ANA })).toBe(true);
    expect(eventoPassa(evento({ tecnico: 'u-ana' }), { ...TODOS_FILTROS, tecnico: ANA })).toBe(true);
    expect(eventoPassa(evento({ tecnico: 'Bruno' }), { ...TODOS_FILTROS, tecnico: ANA })).toBe(false);
    const marco = { ...TODOS_FILTROS, dataInicio: '2026-03-10', dataFim: '2026-03-10' };
    expect(eventoPassa(evento({ dataHora: at(2026, 3, 10, 0) }), marco)).toBe(true);
    expect(eventoPassa(evento({ dataHora: at(2026, 3, 10, 23) }), marco)).toBe(true);
    expect(eventoPassa(evento({ dataHora: at(2026, 3, 11, 0) }), marco)).toBe(false);
    expect(eventoPassa(evento({ dataHora: null }), marco)).toBe(false);
  });

  it('keeps the chosen technician among the options whatever the answer lists', () => {
    expect(tecnicoOptions([], ANA)).toEqual([ANA]);
    expect(tecnicoOptions([ANA], ANA)).toEqual([ANA]);
    expect(tecnicoOptions([ANA], null)).toEqual([ANA]);
  });
});

describe('supervisor popup', () => {
  /** A record as GET /api/registro/{id} answers it. */
  const base: Registro = {
    _id: '0190a6c2-7b3e-7c1d-9f00-000000000001',
    projeto: '0190a6c2-7b3e-7c1d-9f00-0000000000aa',
    nomeProjeto: 'Curitiba',
    zona: null,
    tecnico: 'Ana Souza',
    coordenadas: { lat: -25.43, lng: -49.27 },
    localizacao: { type: 'Point', coordinates: [-49.27, -25.43] },
    dataHora: at(2026, 3, 10),
    sincronizadoEm: at(2026, 3, 10, 13),
    coletado: true,
    adicionadoApp: false,
    carregadoBackoffice: true,
    fotos: [],
  };
  /** A collection listed under a point. */
  const coleta = (_id: string, tecnico: string, dataHora: number | null) => ({
    _id,
    tecnico,
    dataHora,
    sincronizadoEm: dataHora,
    coordenadas: null,
    fotos: [],
  });

  it('shows what the spec names for each flow', () => {
    expect(
      popupCampos('hc', { ...base, tipoUnidade: 'SDU', tipoImovel: 'RESIDENCIAL', numero: '120' }).map(
        (c) => c.value,
      ),
    ).toEqual(['SDU', 'RESIDENCIAL', '120']);
    expect(popupCampos('poste', base)).toEqual([{ label: 'Técnico', value: 'Ana Souza' }]);
    expect(popupCampos('ip', base)).toEqual([
      { label: 'Id', value: base._id },
      { label: 'Sequencial', value: SEM_VALOR },
      { label: 'Técnico', value: 'Ana Souza' },
    ]);
    expect(popupCampos('ip', { ...base, sequencial: 17 })[1]).toEqual({ label: 'Sequencial', value: '17' });
    expect(popupCampos('bdgd', { ...base, tecnico: null }).map((c) => c.label)).toEqual(['Técnico', 'Data']);
  });

  it('lists each collection of a point in conflict once', () => {
    const linhas = popupColetas({
      ...base,
      conflito: true,
      coletas: [coleta('c-2', 'Bruno', at(2026, 3, 11)), coleta(base._id, 'Ana Souza', base.dataHora)],
    });
    expect(linhas.map((linha) => linha.tecnico)).toEqual(['Ana Souza', 'Bruno']);
  });

  it('links to the flow gallery', () => {
    expect(fotosPath('hc', 'abc')).toBe('/unidade/abc/fotos');
    expect(fotosPath('grupoA', 'abc')).toBe('/grupoa/abc/fotos');
    expect(fotosPath('lpt2', 'abc')).toBe('/lptv2/abc/fotos');
  });
});
