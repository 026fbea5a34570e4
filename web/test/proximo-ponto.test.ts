// 'Próximo ponto' (issue 26): distance and direction between known positions, the nearest point still to collect
// in the technician's zones, and the offline search by a point's id.
import { describe, expect, it } from 'vitest';
import { bdgdFlow } from '@novus/domain/flows/bdgd';
import { fiscalizacaoFlow } from '@novus/domain/flows/fiscalizacao';
import { ipFlow } from '@novus/domain/flows/ip';
import { lptFlow } from '@novus/domain/flows/lpt';
import { lptAgiltecFlow } from '@novus/domain/flows/lpt-agiltec';
import { posteFlow } from '@novus/domain/flows/poste';
import {
  direcaoDe,
  distanciaMetros,
  formatDistancia,
  RAIO_TERRA,
  rumoGraus,
} from '../src/map/field/geodesia';
import {
  buscaAjuda,
  buscarPontos,
  CAMPOS_BUSCA,
  escolherProximo,
  hasProximoPonto,
  pontosAColetar,
  PROXIMO_TEXTS,
} from '../src/collect/shared/proximo-ponto';
import type { LocalZona } from '../src/offline/db';
import type { LocalColeta } from '../src/offline/records';

/** The technician's fix of the e2e journeys, inside Zona Centro. */
const GPS = { lat: -25.435, lng: -49.275 };
/** Zona Centro of the sample Curitiba KML, as a rectangle. */
const CENTRO: LocalZona = {
  _id: 'z1',
  label: 'Zona Centro',
  poligono: [
    { lat: -25.44, lng: -49.28 },
    { lat: -25.44, lng: -49.27 },
    { lat: -25.43, lng: -49.27 },
    { lat: -25.43, lng: -49.28 },
  ],
};

let next = 0;
function ponto(lat: number, lng: number, changes: Partial<LocalColeta> = {}): LocalColeta {
  next += 1;
  return {
    id: `0190a1b2-c3d4-7e5f-8a9b-${String(next).padStart(12, '0')}`,
    projeto: 'p1',
    dataHora: 1_790_000_000_000,
    coordenadas: { lat, lng },
    fotos: [],
    imagensCompactadas: false,
    coletado: false,
    carregadoBackoffice: true,
    sincronizadoEm: 1_790_000_000_000,
    dados: {},
    ...changes,
  };
}

describe('distance and direction', () => {
  it('measures known pairs on the sphere', () => {
    // one degree of a meridian, and of the equator: the radius times π/180
    expect(distanciaMetros({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(
      (RAIO_TERRA * Math.PI) / 180,
      3,
    );
    expect(distanciaMetros({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(111_195.08, 1);
    // Nashville (BNA) to Los Angeles (LAX): 2887.2600 km on a 6372.8 km sphere (the classic haversine example)
    const bna = { lat: 36.12, lng: -86.67 };
    const lax = { lat: 33.94, lng: -118.4 };
    expect(distanciaMetros(bna, lax)).toBeCloseTo(2_887_259.95 * (RAIO_TERRA / 6_372_800), 0);
    // 0.0003° of latitude north of the Curitiba fix: 33.4 m
    expect(distanciaMetros(GPS, { lat: GPS.lat + 0.0003, lng: GPS.lng })).toBeCloseTo(33.36, 1);
    // 0.0006° of longitude east at latitude -25.435: 111.195 km × cos(25.435°) × 0.0006 = 60.25 m
    expect(distanciaMetros(GPS, { lat: GPS.lat, lng: GPS.lng + 0.0006 })).toBeCloseTo(60.25, 1);
    expect(distanciaMetros(GPS, GPS)).toBe(0);
  });

  it('gives the bearing from true north, clockwise', () => {
    expect(rumoGraus({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(0, 6);
    expect(rumoGraus({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(90, 6);
    expect(rumoGraus({ lat: 0, lng: 0 }, { lat: -1, lng: 0 })).toBeCloseTo(180, 6);
    expect(rumoGraus({ lat: 0, lng: 0 }, { lat: 0, lng: -1 })).toBeCloseTo(270, 6);
    // (0,0) to (1,1) on a sphere: atan2(cos 1°·sin 1°, sin 1°) = 44.9956°
    expect(rumoGraus({ lat: 0, lng: 0 }, { lat: 1, lng: 1 })).toBeCloseTo(44.9956, 3);
    // 30 m north and 30 m east of the Curitiba fix: north-east
    const nordeste = {
      lat: GPS.lat + 30 / 111_195,
      lng: GPS.lng + 30 / (111_195 * Math.cos((25.435 * Math.PI) / 180)),
    };
    expect(rumoGraus(GPS, nordeste)).toBeCloseTo(45, 0);
    expect(direcaoDe(rumoGraus(GPS, nordeste))).toBe('nordeste');
    // 100 m south and 100 m west: south-west
    expect(direcaoDe(rumoGraus(GPS, { lat: GPS.lat - 0.0009, lng: GPS.lng - 0.001 }))).toBe('sudoeste');
  });

  it('names the eight compass directions, each 45° wide', () => {
    expect(
      [0, 22.4, 22.6, 90, 135, 180, 225, 270, 315, 337.4, 337.6, 359.9, 360, -45].map(direcaoDe),
    ).toEqual([
      'norte',
      'norte',
      'nordeste',
      'leste',
      'sudeste',
      'sul',
      'sudoeste',
      'oeste',
      'noroeste',
      'noroeste',
      'norte',
      'norte',
      'norte',
      'noroeste',
    ]);
  });

  it('writes distances in Brazilian notation', () => {
    expect(formatDistancia(0)).toBe('0 m');
    expect(formatDistancia(33.36)).toBe('33 m');
    expect(formatDistancia(999.4)).toBe('999 m');
    expect(formatDistancia(999.6)).toBe('1 km');
    expect(formatDistancia(1234)).toBe('1,2 km');
    expect(formatDistancia(12_560)).toBe('12,6 km');
    expect(formatDistancia(1_234_500)).toBe('1.234,5 km');
  });
});

describe('the next point to visit', () => {
  it('is offered on the flows whose points come preloaded, and only there', () => {
    expect([ipFlow, bdgdFlow, fiscalizacaoFlow].map(hasProximoPonto)).toEqual([true, true, true]);
    // LPT points are only drawn in the app; LPT Agiltec is chosen from a list; poles are made on the device
    expect([lptFlow, lptAgiltecFlow, posteFlow].map(hasProximoPonto)).toEqual([false, false, false]);
  });

  it('picks the nearest point not collected yet, with its distance and direction', () => {
    const norte = ponto(GPS.lat + 0.0003, GPS.lng, { dados: { idConcessionaria: 'IP-NORTE' } });
    const leste = ponto(GPS.lat, GPS.lng + 0.0006, { dados: { idConcessionaria: 'IP-LESTE' } });
    const coletadoAoLado = ponto(GPS.lat + 0.00001, GPS.lng, { coletado: true });
    const candidatos = pontosAColetar([leste, coletadoAoLado, norte], [CENTRO]);
    expect(candidatos).toEqual([leste, norte]);

    const proximo = escolherProximo(GPS, candidatos);
    expect(proximo).toMatchObject({ tipo: 'ponto', record: norte, direcao: 'norte' });
    if (proximo.tipo !== 'ponto') throw new Error('expected a point');
    expect(proximo.metros).toBeCloseTo(33.36, 1);
    expect(proximo.graus).toBeCloseTo(0, 3);

    // walked 50 m east: the east point is nearer now
    const andou = { lat: GPS.lat, lng: GPS.lng + 0.0005 };
    expect(escolherProximo(andou, candidatos)).toMatchObject({
      tipo: 'ponto',
      record: leste,
      direcao: 'leste',
    });
  });

  it('leaves out the points outside the technician zones, even the nearest', () => {
    // just across the zone's southern edge (-25.44), and the fix just inside it
    const perto = { lat: -25.4399, lng: -49.275 };
    const fora = ponto(-25.4401, -49.275, { dados: { idConcessionaria: 'FORA' } });
    const dentro = ponto(-25.4395, -49.275, { dados: { idConcessionaria: 'DENTRO' } });
    const candidatos = pontosAColetar([fora, dentro], [CENTRO]);
    expect(candidatos).toEqual([dentro]);
    expect(escolherProximo(perto, candidatos)).toMatchObject({
      tipo: 'ponto',
      record: dentro,
      direcao: 'norte',
    });
    // without the zone filter the outside one would have won
    expect(escolherProximo(perto, [fora, dentro])).toMatchObject({ record: fora });
  });

  it('keeps every point when the zones on the device have no polygon', () => {
    const longe = ponto(-23.55, -46.63);
    expect(pontosAColetar([longe], [{ _id: 'z', label: 'Sem polígono' }])).toEqual([longe]);
  });

  it('breaks ties at the same spot by sequencial, then by id', () => {
    const mesmoLugar = { lat: GPS.lat + 0.0002, lng: GPS.lng };
    const sem = ponto(mesmoLugar.lat, mesmoLugar.lng, { dados: {} });
    const doze = ponto(mesmoLugar.lat, mesmoLugar.lng, { dados: { sequencial: 12 } });
    const tres = ponto(mesmoLugar.lat, mesmoLugar.lng, { dados: { sequencial: '3' } });
    expect(escolherProximo(GPS, [sem, doze, tres])).toMatchObject({ record: tres });
    expect(escolherProximo(GPS, [doze, sem])).toMatchObject({ record: doze });
    // neither numbered: the lower id, whatever the order on the device
    const outro = ponto(mesmoLugar.lat, mesmoLugar.lng, { dados: {} });
    expect(escolherProximo(GPS, [outro, sem])).toMatchObject({ record: sem });
    expect(escolherProximo(GPS, [sem, outro])).toMatchObject({ record: sem });
  });

  it('says so without a GPS position, and when nothing is left to collect', () => {
    const norte = ponto(GPS.lat + 0.0003, GPS.lng);
    expect(escolherProximo(null, [norte])).toEqual({ tipo: 'semGps' });
    expect(PROXIMO_TEXTS.semGps).toBe(
      'Sem a posição do GPS não é possível indicar o próximo ponto. Aguarde o sinal ou ative a localização.',
    );
    expect(escolherProximo(GPS, pontosAColetar([{ ...norte, coletado: true }], [CENTRO]))).toEqual({
      tipo: 'nenhum',
    });
  });
});

describe('the search by a point id', () => {
  const ip = CAMPOS_BUSCA.ip ?? [];
  const records = [
    ponto(GPS.lat, GPS.lng, { dados: { idConcessionaria: 'IP-1200', sequencial: 5 } }),
    ponto(GPS.lat, GPS.lng, { dados: { idConcessionaria: 'IP-120', sequencial: 7 } }),
    ponto(GPS.lat, GPS.lng, { dados: { idConcessionaria: 'XIP-12', sequencial: 12 } }),
    ponto(GPS.lat, GPS.lng, { dados: { idConcessionaria: 'POSTE-9', sequencial: 120 } }),
  ];
  const ids = (found: LocalColeta[]) => found.map((record) => String(record.dados.idConcessionaria));

  it('finds points by idConcessionaria or sequencial, exact matches first, ignoring case', () => {
    expect(ids(buscarPontos(records, ip, 'ip-120'))).toEqual(['IP-120', 'IP-1200']);
    expect(ids(buscarPontos(records, ip, '12'))).toEqual(['XIP-12', 'POSTE-9', 'IP-1200', 'IP-120']);
    expect(ids(buscarPontos(records, ip, ' 7 '))).toEqual(['IP-120']);
    expect(buscarPontos(records, ip, 'nada')).toEqual([]);
    expect(buscarPontos(records, ip, '   ')).toEqual([]);
    expect(buscarPontos(records, ip, 'ip', 2)).toHaveLength(2);
  });

  it('finds a fiscalização by its plate, accents aside', () => {
    const placas = [
      ponto(GPS.lat, GPS.lng, { dados: { placa: 'SÃO-77' } }),
      ponto(GPS.lat, GPS.lng, { dados: {} }),
    ];
    expect(buscarPontos(placas, CAMPOS_BUSCA.fiscalizacao ?? [], 'sao-77')).toEqual([placas[0]]);
    expect(buscaAjuda(CAMPOS_BUSCA.fiscalizacao ?? [])).toBe('Por placa, mesmo sem internet.');
    expect(buscaAjuda(ip)).toBe('Por ID da concessionária ou sequencial, mesmo sem internet.');
  });
});
