// A project and the rules of its form (SPEC.md sections 2, 3, 7): scalar fields here, zones and points from
// files (parsed by domain/geo) or from the JSON fields the spec's API carries.
import { FLUXOS } from './flows/keys.ts';
import { FUSOS } from './geo/utm.ts';
import { booleanField, emptyToUndefined, listField } from './form-fields.ts';
import { z } from './zod.ts';

/** fluxos as a list, a JSON list, a comma-separated string or one repeated form field. */
const fluxosField = listField(z.enum(FLUXOS, { error: 'Fluxo desconhecido.' }), 'Fluxos inválidos.')
  .refine((fluxos) => fluxos.length > 0, { message: 'Escolha pelo menos um fluxo.' })
  .transform((fluxos) => [...new Set(fluxos)]);

export const projetoFieldsSchema = z.object({
  nome: z
    .string({ error: 'O nome do projeto é obrigatório.' })
    .trim()
    .min(1, 'O nome do projeto é obrigatório.')
    .max(200, 'O nome do projeto deve ter no máximo 200 caracteres.'),
  cliente: z.uuid({ error: 'Escolha o cliente do projeto.' }),
  fuso: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Fuso inválido.' })
      .refine((fuso) => (FUSOS as readonly number[]).includes(fuso), {
        message: 'O fuso deve ser de 18 a 25.',
      })
      .optional(),
  ),
  fluxos: fluxosField,
  disponivelInterpres: booleanField('Valor inválido para Disponibilizar no Interpres.'),
  limiteDownload: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Limite de download inválido.' })
      .int('O limite de download deve ser um número inteiro.')
      .min(0, 'O limite de download não pode ser negativo.')
      .optional(),
  ),
});
export type ProjetoFields = z.infer<typeof projetoFieldsSchema>;

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const coordenadas = z.tuple([latitude, longitude], { error: 'coordenadas devem ser [latitude, longitude].' });
const text = z.preprocess(
  (value) => (value === undefined || value === null ? '' : String(value)),
  z.string().max(500),
);

/** Points sent as JSON (the spec's pontosIP, pontosBDGD, ...): the same shapes the file parsers make. */
export const pontoIpJsonSchema = z.object({
  coordenadas,
  idConcessionaria: text,
  idCircuito: text,
  quantidadeCompartilhamento: z.coerce.number().int().min(0).default(0),
});
export const pontoBdgdJsonSchema = z.object({
  coordenadas,
  idConcessionaria: text,
  ativo: text,
  sequencial: z.coerce.number().int().min(1).optional(),
});
export const pontoFiscalizacaoJsonSchema = z.object({
  coordenadas,
  barramento: text,
  tipo: text,
  material: text,
  altura: text,
  carga: text,
  tipoEquipamento: text,
  placa: text,
  potencia: text,
  fases: text,
  medidor: text,
  faseConsumidor: text,
});
export const pontoLptAgiltecJsonSchema = z.object({
  os: z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().min(1, 'os é obrigatório.'),
  ),
  nome: text,
  cpf: text,
  email: text,
  telefone1: text,
  propriedade: text,
  comunidade: text,
  municipio: text,
  polo: text,
  regional: text,
});

export const zonaJsonSchema = z.object({
  _id: z.uuid().optional(),
  label: z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().max(200),
  ),
  poligono2: z.object({
    type: z.literal('Polygon', { error: 'poligono2 deve ser um Polygon GeoJSON.' }),
    coordinates: z.array(z.array(z.array(z.number()).min(2)).min(1)).min(1),
  }),
});

/**
 * What makes two preloaded points the same point, so that re-sending a file on project edit neither
 * duplicates a point a technician already collected nor loses it.
 */
export function preloadedKey(
  fluxo: 'ip' | 'bdgd' | 'fiscalizacao' | 'lpt2',
  ponto: { lat: number | null; lng: number | null; dados: Record<string, unknown> },
): string {
  const at = `${ponto.lat?.toFixed(6) ?? ''},${ponto.lng?.toFixed(6) ?? ''}`;
  const field = (name: string) => String(ponto.dados[name] ?? '');
  switch (fluxo) {
    case 'ip':
      return `${field('idConcessionaria')}|${at}`;
    case 'bdgd':
      return `${field('idConcessionaria')}|${field('ativo')}|${at}`;
    case 'fiscalizacao':
      return `${field('placa')}|${at}`;
    case 'lpt2':
      return field('os');
  }
}
