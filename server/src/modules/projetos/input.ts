// Reads the project form (SPEC.md section 7: form-encoded, zonas and pontos* as JSON strings) into one input.
// Files may come raw too (kml, arquivoIP, ...): the server parses them itself and never trusts a conversion.
import type { PreloadedFluxo } from '@novus/domain/flows/keys';
import { PONTOS_FIELD, PRELOADED_FLUXOS } from '@novus/domain/flows/keys';
import { type ParsedZona, parseKmlZones, toZona } from '@novus/domain/geo/kml';
import { FileParseError } from '@novus/domain/geo/parse-error';
import {
  parseBdgdPoints,
  parseFiscalizacaoPoints,
  parseIpPoints,
  parseLptAgiltecPoints,
} from '@novus/domain/geo/point-files';
import { FISCALIZACAO_DEFAULT_FUSO } from '@novus/domain/geo/utm';
import {
  type ProjetoFields,
  pontoBdgdJsonSchema,
  pontoFiscalizacaoJsonSchema,
  pontoIpJsonSchema,
  pontoLptAgiltecJsonSchema,
  projetoFieldsSchema,
  zonaJsonSchema,
} from '@novus/domain/projeto';
import { z } from '@novus/domain/zod';
import { badRequest, parseInput } from '../../errors.ts';

export type ZonaInput = ParsedZona & { _id?: string };

/** A preloaded point as stored: coordinates as columns, the rest in `dados`. */
export interface PontoInput {
  lat: number | null;
  lng: number | null;
  dados: Record<string, unknown>;
}

export interface ProjetoInput extends ProjetoFields {
  /** undefined: keep the project's zones as they are. */
  zonas: ZonaInput[] | undefined;
  /** Per flow: undefined keeps its preloaded points, a list replaces those not yet collected. */
  pontos: Partial<Record<PreloadedFluxo, PontoInput[]>>;
}

const FILE_FIELD: Record<PreloadedFluxo, string> = {
  ip: 'arquivoIP',
  bdgd: 'arquivoBDGD',
  fiscalizacao: 'arquivoFiscalizacao',
  lpt2: 'arquivoLPTv2',
};

const FILE_NAME: Record<PreloadedFluxo, string> = {
  ip: 'Arquivo de pontos IP',
  bdgd: 'Arquivo BDGD',
  fiscalizacao: 'Arquivo de fiscalização',
  lpt2: 'Arquivo LPT Agiltec',
};

const JSON_SCHEMA = {
  ip: pontoIpJsonSchema,
  bdgd: pontoBdgdJsonSchema,
  fiscalizacao: pontoFiscalizacaoJsonSchema,
  lpt2: pontoLptAgiltecJsonSchema,
} as const;

export function readProjetoInput(body: unknown): ProjetoInput {
  const fields = parseInput(projetoFieldsSchema, body);
  const form = isRecord(body) ? body : {};
  const pontos: ProjetoInput['pontos'] = {};
  for (const fluxo of PRELOADED_FLUXOS) {
    // Unticking a flow clears the points it had not collected yet (SPEC.md section 4).
    if (!fields.fluxos.includes(fluxo)) pontos[fluxo] = [];
    else pontos[fluxo] = readPontos(fluxo, form, fields);
  }
  return { ...fields, zonas: readZonas(form), pontos };
}

function readZonas(form: Record<string, unknown>): ZonaInput[] | undefined {
  const kml = form.kml;
  if (typeof kml === 'string' && kml.trim() !== '') {
    return fileErrors('Zoneamento', () => parseKmlZones(kml));
  }
  if (form.zonas === undefined) return undefined;
  const list = jsonList(form.zonas, 'zonas');
  return list.map((item, index) => {
    const zona = parseInput(zonaJsonSchema, item);
    const label = zona.label.trim() || `Zona ${index + 1}`;
    const parsed = fileErrors('Zoneamento', () => toZona(label, zona.poligono2, index + 1));
    return zona._id ? { ...parsed, _id: zona._id } : parsed;
  });
}

function readPontos(
  fluxo: PreloadedFluxo,
  form: Record<string, unknown>,
  fields: ProjetoFields,
): PontoInput[] | undefined {
  const file = form[FILE_FIELD[fluxo]];
  if (typeof file === 'string' && file.trim() !== '') {
    return fileErrors(FILE_NAME[fluxo], () => parseFile(fluxo, file, fields.fuso)).map(toPontoInput);
  }
  const json = form[PONTOS_FIELD[fluxo]];
  if (json === undefined) return undefined;
  return jsonList(json, PONTOS_FIELD[fluxo]).map((item, index) => {
    const result = JSON_SCHEMA[fluxo].safeParse(item);
    if (!result.success) {
      const message = `${PONTOS_FIELD[fluxo]}, ponto ${index + 1}: ${result.error.issues[0]?.message ?? 'inválido'}`;
      throw badRequest(message);
    }
    return toPontoInput(result.data);
  });
}

function parseFile(fluxo: PreloadedFluxo, text: string, fuso: number | undefined): object[] {
  switch (fluxo) {
    case 'ip':
      return parseIpPoints(text);
    case 'bdgd':
      if (fuso === undefined) {
        throw new FileParseError('escolha o fuso do projeto para converter as coordenadas UTM.');
      }
      return parseBdgdPoints(text, fuso);
    case 'fiscalizacao':
      return parseFiscalizacaoPoints(text, fuso ?? FISCALIZACAO_DEFAULT_FUSO);
    case 'lpt2':
      return parseLptAgiltecPoints(text);
  }
}

function toPontoInput(ponto: object): PontoInput {
  const {
    coordenadas,
    localizacao: _localizacao,
    carregadoBackoffice: _c,
    coletado: _k,
    ...dados
  } = ponto as {
    coordenadas?: [number, number];
    localizacao?: unknown;
    carregadoBackoffice?: unknown;
    coletado?: unknown;
  } & Record<string, unknown>; // every parser and JSON schema above yields an object of this shape
  return { lat: coordenadas?.[0] ?? null, lng: coordenadas?.[1] ?? null, dados };
}

function fileErrors<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof FileParseError) throw badRequest(`${what}: ${error.message}`);
    throw error;
  }
}

function jsonList(value: unknown, field: string): unknown[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = value.trim() === '' ? [] : JSON.parse(value);
    } catch {
      throw badRequest(`O campo ${field} não é um JSON válido.`);
    }
  }
  const list = z.array(z.unknown()).safeParse(parsed);
  if (!list.success) throw badRequest(`O campo ${field} deve ser uma lista.`);
  return list.data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
