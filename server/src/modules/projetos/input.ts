// Reads the project form (SPEC.md section 7: form-encoded, zonas and pontos* as JSON strings) into one input.
// Files may come raw too (kml, arquivoIP, ...): the server parses them itself and never trusts a conversion.
import type { PreloadedPonto } from '@novus/domain/flows/flow';
import { type PreloadedFlow, type PreloadedFluxo, PRELOADED_FLOWS } from '@novus/domain/flows/registry';
import { type ParsedZona, parseKmlZones, toZona } from '@novus/domain/geo/kml';
import { FileParseError } from '@novus/domain/geo/parse-error';
import { checkReadableText } from '@novus/domain/geo/text-file';
import { type ProjetoFields, projetoFieldsSchema, zonaJsonSchema } from '@novus/domain/projeto';
import { z } from '@novus/domain/zod';
import { badRequest, parseInput } from '../../errors.ts';

export type ZonaInput = ParsedZona & { _id?: string };

/** A preloaded point as stored: coordinates as columns, the rest in `dados`. */
export type PontoInput = PreloadedPonto;

export interface ProjetoInput extends ProjetoFields {
  /** undefined: keep the project's zones as they are. */
  zonas: ZonaInput[] | undefined;
  /** Per flow: undefined keeps its preloaded points, a list replaces those not yet collected. */
  pontos: Partial<Record<PreloadedFluxo, PontoInput[]>>;
}

export async function readProjetoInput(body: unknown): Promise<ProjetoInput> {
  const form = isRecord(body) ? body : {};
  checkFiles(form);
  const fields = parseInput(projetoFieldsSchema, body);
  const pontos: ProjetoInput['pontos'] = {};
  for (const flow of PRELOADED_FLOWS) {
    // Unticking a flow clears the points it had not collected yet (SPEC.md section 4).
    if (!fields.fluxos.includes(flow.key)) pontos[flow.key] = [];
    else pontos[flow.key] = await readPontos(flow, form, fields);
  }
  return { ...fields, zonas: readZonas(form), pontos };
}

/**
 * A binary or wrongly decoded file is named before the request's other checks (which would only say the
 * request holds invalid characters).
 */
function checkFiles(form: Record<string, unknown>): void {
  const files = [
    { field: 'kml', label: 'Zoneamento' },
    ...PRELOADED_FLOWS.map(({ preload }) => ({ field: preload.fileField, label: preload.fileLabel })),
  ];
  for (const { field, label } of files) {
    const text = form[field];
    if (typeof text === 'string') fileErrors(label, () => checkReadableText(text));
  }
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

async function readPontos(
  { preload }: PreloadedFlow,
  form: Record<string, unknown>,
  fields: ProjetoFields,
): Promise<PontoInput[] | undefined> {
  const file = form[preload.fileField];
  if (typeof file === 'string' && file.trim() !== '') {
    try {
      return await preload.parse(file, fields.fuso);
    } catch (error) {
      if (error instanceof FileParseError) throw badRequest(`${preload.fileLabel}: ${error.message}`);
      throw error;
    }
  }
  const json = form[preload.formField];
  if (json === undefined) return undefined;
  return jsonList(json, preload.formField).map((item, index) => {
    const result = preload.json.safeParse(item);
    if (!result.success) {
      const message = `${preload.formField}, ponto ${index + 1}: ${result.error.issues[0]?.message ?? 'inválido'}`;
      throw badRequest(message);
    }
    return result.data;
  });
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
