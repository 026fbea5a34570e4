// 'Próximo ponto' and 'Buscar ponto' on the flows whose points come preloaded (issue 26): the nearest point still
// to collect in the technician's zones, and a point found by its id, both from the records already on the device.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import { isInZonas } from '@novus/domain/geo/zonas';
import type { LatLng } from '@novus/domain/geo/kml';
import { type Direcao, direcaoDe, distanciaMetros, rumoGraus } from '../../map/field/geodesia';
import type { LocalZona } from '../../offline/db';
import type { LocalColeta } from '../../offline/records';

export const PROXIMO_TEXTS = {
  botao: 'Próximo ponto',
  semGps:
    'Sem a posição do GPS não é possível indicar o próximo ponto. Aguarde o sinal ou ative a localização.',
  nenhum: 'Não há pontos a coletar nas suas zonas.',
  busca: 'Buscar ponto',
  nadaEncontrado: 'Nenhum ponto encontrado com esse identificador.',
} as const;

/** Whether a flow offers 'Próximo ponto': its points are preloaded from the project's file and opened on the map. */
export function hasProximoPonto(flow: Pick<FlowDefinition, 'lifecycle' | 'preload'>): boolean {
  return flow.lifecycle === 'ponto' && flow.preload !== undefined;
}

/** How far and which way a point lies from the GPS position. */
export interface Rumo {
  metros: number;
  /** degrees clockwise from true north */
  graus: number;
  direcao: Direcao;
}

export type Proximo =
  { tipo: 'semGps' } | { tipo: 'nenhum' } | ({ tipo: 'ponto'; record: LocalColeta } & Rumo);

export function rumoAte(de: LatLng, para: LatLng): Rumo {
  const graus = rumoGraus(de, para);
  return { metros: distanciaMetros(de, para), graus, direcao: direcaoDe(graus) };
}

/**
 * The points still to visit: not collected, with a position, inside one of the technician's zones. A project whose
 * zones have no polygon on the device (an old download) cannot tell inside from outside, so none is left out.
 */
export function pontosAColetar(records: readonly LocalColeta[], zonas: readonly LocalZona[]): LocalColeta[] {
  const comPoligono = zonas.some((zona) => (zona.poligono?.length ?? 0) >= 3);
  return records.filter(
    (record) =>
      record.coletado !== true &&
      Number.isFinite(record.coordenadas.lat) &&
      Number.isFinite(record.coordenadas.lng) &&
      (!comPoligono || isInZonas(record.coordenadas, zonas)),
  );
}

/** Points at the same spot (to the centimetre) go in the file's order: lower sequencial first, then id. */
function antes(
  a: { record: LocalColeta; metros: number },
  b: { record: LocalColeta; metros: number },
): boolean {
  const ca = Math.round(a.metros * 100);
  const cb = Math.round(b.metros * 100);
  if (ca !== cb) return ca < cb;
  const sa = sequencialNumero(a.record);
  const sb = sequencialNumero(b.record);
  if (sa !== sb) return sa < sb;
  return a.record.id < b.record.id;
}

/** The server's number of a point, or Infinity before it has one (points the app drew go last). */
function sequencialNumero(record: LocalColeta): number {
  const { sequencial } = record.dados;
  const value =
    typeof sequencial === 'number' || (typeof sequencial === 'string' && sequencial.trim() !== '')
      ? Number(sequencial)
      : Number.NaN;
  return Number.isFinite(value) ? value : Number.POSITIVE_INFINITY;
}

/** The nearest of `candidatos` (see pontosAColetar) to the GPS position. */
export function escolherProximo(posicao: LatLng | null, candidatos: readonly LocalColeta[]): Proximo {
  if (!posicao) return { tipo: 'semGps' };
  let melhor: { record: LocalColeta; metros: number } | null = null;
  for (const record of candidatos) {
    const atual = { record, metros: distanciaMetros(posicao, record.coordenadas) };
    if (!melhor || antes(atual, melhor)) melhor = atual;
  }
  if (!melhor) return { tipo: 'nenhum' };
  return { tipo: 'ponto', record: melhor.record, ...rumoAte(posicao, melhor.record.coordenadas) };
}

/** A field a point is searched by, and how the search field's help names it. */
export interface CampoBusca {
  campo: string;
  nome: string;
}

/**
 * What identifies a preloaded point of each flow on its label and in the project's file. IP and BDGD are
 * numbered by the server (`sequencial`, kept in the record's dados); fiscalização is known by the plate.
 */
export const CAMPOS_BUSCA: Partial<Record<Fluxo, readonly CampoBusca[]>> = {
  ip: [
    { campo: 'idConcessionaria', nome: 'ID da concessionária' },
    { campo: 'sequencial', nome: 'sequencial' },
  ],
  bdgd: [
    { campo: 'idConcessionaria', nome: 'ID da concessionária' },
    { campo: 'sequencial', nome: 'sequencial' },
  ],
  fiscalizacao: [{ campo: 'placa', nome: 'placa' }],
};

/** 'Por ID da concessionária ou sequencial, mesmo sem internet.' */
export function buscaAjuda(campos: readonly CampoBusca[]): string {
  const nomes = campos.map((campo) => campo.nome);
  const lista =
    nomes.length > 1 ? `${nomes.slice(0, -1).join(', ')} ou ${nomes.at(-1) ?? ''}` : (nomes[0] ?? '');
  return `Por ${lista}, mesmo sem internet.`;
}

/** Case and accents do not matter: 'ip-100' finds 'IP-100', 'sao' finds 'SÃO'. */
function normalizar(texto: string): string {
  return texto
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toLowerCase();
}

/**
 * The points whose identifiers hold the text: exact matches first, then those that start with it, then the
 * rest, each group in the file's order; at most `limite`.
 */
export function buscarPontos(
  records: readonly LocalColeta[],
  campos: readonly CampoBusca[],
  texto: string,
  limite = 8,
): LocalColeta[] {
  const busca = normalizar(texto);
  if (busca === '') return [];
  const achados: { record: LocalColeta; nota: number }[] = [];
  for (const record of records) {
    let nota = Number.POSITIVE_INFINITY;
    for (const { campo } of campos) {
      const value = record.dados[campo];
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const texto = normalizar(String(value));
      if (texto === busca) nota = Math.min(nota, 0);
      else if (texto.startsWith(busca)) nota = Math.min(nota, 1);
      else if (texto.includes(busca)) nota = Math.min(nota, 2);
    }
    if (Number.isFinite(nota)) achados.push({ record, nota });
  }
  achados.sort(
    (a, b) =>
      a.nota - b.nota ||
      sequencialNumero(a.record) - sequencialNumero(b.record) ||
      (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0),
  );
  return achados.slice(0, limite).map((achado) => achado.record);
}
