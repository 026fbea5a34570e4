// What every flow declares once (DESIGN.md 'The flow registry'): the server routes, the sync engine, the menu,
// the galleries and the exports iterate over these declarations instead of copying code per flow.
import type { Fluxo } from './keys.ts';
import type { FlowExports } from '../export/columns.ts';
import { emptyToUndefined } from '../form-fields.ts';
import { z } from '../zod.ts';
import { isInBrazil } from '../geo/brazil.ts';

/**
 * How a flow's records live: `coleta` records are made on the device and exist once collected (units, poles,
 * trees, Grupo A); `ponto` records are points on the map that may also be preloaded from the project's file
 * and are collected by opening them (ip, lpt, bdgd, fiscalizacao); `lista` records come only from the
 * project's file and are chosen from a list (LPT Agiltec).
 */
export type Lifecycle = 'coleta' | 'ponto' | 'lista';

/** A point of a project file as stored: coordinates as columns (when the file has them), the rest in `dados`. */
export interface PreloadedPonto {
  lat: number | null;
  lng: number | null;
  dados: Record<string, unknown>;
}

/** A flow whose points the back office loads from a file on the project form (SPEC.md sections 2, 3, 7, 9). */
export interface Preload {
  /** JSON field of POST/PUT /api/projeto ('pontosIP'). */
  formField: string;
  /** Raw file field the server parses itself ('arquivoIP'). */
  fileField: string;
  /** How error messages and the project form name the file. */
  fileLabel: string;
  /** Accepted file extension on the project form. */
  accept: string;
  /**
   * Parses the file; rejects with FileParseError naming the line. The parsers (papaparse, proj4) load on first
   * use, so the technician's app, which only reads the declarations, never carries them.
   */
  parse(text: string, fuso: number | undefined): Promise<PreloadedPonto[]>;
  /** One point as the JSON field carries it. */
  json: z.ZodType<PreloadedPonto>;
  /** What makes two preloaded points the same point, so re-sending a file never duplicates a collected one. */
  key(ponto: PreloadedPonto): string;
  /**
   * The UTM zone of the file's coordinates: 'projeto', the project's fuso (the file waits for one, and is read
   * again when it changes); a zone number, that zone whatever the project's; null, latitude and longitude or none.
   */
  utmZone: 'projeto' | number | null;
  /** The project form's help under the file input; `fuso` is the form's choice ('' when none). */
  help(fuso: string): string;
  /** Its points on the project form's map (SPEC.md 2: IP green, BDGD red, inspection blue); null: no positions. */
  formMapColor: string | null;
}

/** What the project form says when a file in the project's fuso is picked before a fuso ('…o arquivo BDGD.'). */
export function fusoNeededText(preload: Pick<Preload, 'fileLabel'>): string {
  const { fileLabel } = preload;
  return `Escolha o fuso do projeto antes de enviar o ${fileLabel.charAt(0).toLowerCase()}${fileLabel.slice(1)}.`;
}

/** A list route of SPEC.md section 7 that finds the project by name or by id. */
export interface ByProjectPath {
  /** Fastify path under /api, with :projeto for the project's name or id. */
  path: string;
  by: 'nome' | 'id';
}

/** How a flow's points are drawn on the maps: the supervisor's layer, and the device's marker by default. */
export interface FlowMapStyle {
  /** The checkbox under the supervisor map's 'Camadas' ('Uso M./IP'). */
  layer: string;
  /** #rrggbb: the supervisor map's layer, the KML, and the device's marker unless the flow colours by state. */
  color: string;
  /** Drawn hollow (ring only) until collected: the points a project file preloads. */
  hollowUntilCollected: boolean;
  /** Listed under 'Camadas' even without points (the spec's five layers); the others only when they have some. */
  alwaysListed: boolean;
  /** Its place in the panel, from 1 (the spec's five first). */
  panelOrder: number;
  /**
   * Its place in the paint order, from 1 (painted first): the project file's preloaded points are the backdrop,
   * what technicians collected goes on top, units last. A click picks the topmost.
   */
  paintOrder: number;
}

export interface FlowLabels {
  /** Button of the project menu (SPEC.md section 2). */
  menu: string;
  /** Checkbox of the project form's Fluxos. */
  form: string;
  /** Home banner: '{banner} pendentes: n'. */
  banner: string;
  /** What one record is called on its screens ('Uso Mútuo / IP', 'Poste'). */
  record: string;
}

export interface FlowDefinition<
  Dados extends z.ZodType<Record<string, unknown>> = z.ZodType<Record<string, unknown>>,
> {
  key: Fluxo;
  labels: FlowLabels;
  /** The wizard's route under /projeto/{id}/ ('addUsoIP'). */
  menuRoute: string;
  /** Dexie store on the device (SPEC.md section 3). */
  store: string;
  /** Path under /api: POST /api/{apiPath}, GET /api/{apiPath}/getByZona, /api/{apiPath}/{id}/fotos. */
  apiPath: string;
  /** Whether GET /api/{apiPath}/getByZona?id= serves the zone's records to the devices. */
  byZona: boolean;
  /** The back office's list by project (SPEC.md section 7), when the spec has one. */
  byProject: ByProjectPath | null;
  /** Status shown while this flow syncs ('Sincronizando unidades'). */
  syncStatus: string;
  /** Tag of the log entry when this flow's sync fails ('SINCRONIZACAO BDGD'). */
  syncTag: string;
  /** What a failed upload's message starts with ('Falha no envio do ponto'). */
  uploadErrorPrefix: string;
  photoSlots: number;
  /** BDGD takes its photos as one list instead of numbered slots (SPEC.md section 9). */
  photoList: boolean;
  /** EXIF kept on compression (fiscalizacao, LPT Agiltec, Grupo A: SPEC.md section 9). */
  keepExif: boolean;
  /** Uploaded units, poles, trees, LPT and Grupo A are deleted on the device; the others are marked. */
  deleteAfterUpload: boolean;
  /** The record screen and gallery live at /{recordPath}/{id} and /{recordPath}/{id}/fotos. */
  recordPath: string;
  /** Gallery text when a record has no photos. */
  noPhotosText: string;
  /** Confirmation asked before a record is deleted on the device. */
  deleteConfirm: string;
  lifecycle: Lifecycle;
  /** The server numbers the flow's points (`sequencial` = max in the project + 1; preloaded ones in file order): BDGD, IP. */
  numbered: boolean;
  map: FlowMapStyle;
  preload?: Preload;
  /** Its CSV files, its KML layer and the columns they carry (the Extrator and the reports). */
  exports: FlowExports;
  /** The flow's own fields, validated on the form and on upload. */
  dados: Dados;
}

/**
 * How the devices download a flow's records on sync: by zone when it has getByZona, else by project when it has
 * a list by project (LPT Agiltec, whose records have no position until collected), else not at all.
 */
export function deviceDownload(
  flow: Pick<FlowDefinition, 'byZona' | 'byProject'>,
): 'zona' | 'projeto' | null {
  if (flow.byZona) return 'zona';
  return flow.byProject ? 'projeto' : null;
}

/** The form values of a flow: what its fields hold while a person edits them (booleans, lists, else text). */
export type FormValuesOf<S extends z.ZodType> = {
  [K in keyof z.output<S>]-?: NonNullable<z.output<S>[K]> extends boolean
    ? boolean
    : NonNullable<z.output<S>[K]> extends readonly unknown[]
      ? string[]
      : string;
};

const latLng = z.object(
  {
    lat: z.number({ error: 'Latitude inválida.' }).min(-90).max(90),
    lng: z.number({ error: 'Longitude inválida.' }).min(-180).max(180),
  },
  { error: 'As coordenadas são obrigatórias.' },
);

/** coordenadas as {lat, lng}, [lat, lng], or either as a JSON string (multipart fields are strings). */
export const coordenadasSchema = z
  .preprocess((value) => {
    let parsed = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        return value;
      }
    }
    if (Array.isArray(parsed)) return { lat: parsed[0], lng: parsed[1] };
    return parsed;
  }, latLng)
  .refine((point) => isInBrazil(point.lat, point.lng), { message: 'As coordenadas estão fora do Brasil.' });

/** The part of an upload every flow shares: the id made on the device, the project, where and when. */
export const uploadEnvelopeSchema = z.object({
  id: z.uuid({ error: 'Identificador do registro inválido.' }),
  /**
   * The id of this collection, made on the device when the technician saved it. A preloaded point keeps the
   * server's id, so two devices collecting the same point send the same `id` and different `coletaId`s.
   */
  coletaId: z.preprocess(emptyToUndefined, z.uuid({ error: 'Identificador da coleta inválido.' }).optional()),
  projeto: z.uuid({ error: 'Projeto inválido.' }),
  coordenadas: coordenadasSchema,
  dataHora: z.coerce
    .number({ error: 'Data e hora inválidas.' })
    .int('Data e hora inválidas.')
    .positive('Data e hora inválidas.'),
  /** GPS accuracy in metres when the point was taken. */
  precisao: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'Precisão inválida.' }).min(0).optional(),
  ),
  /**
   * The record's revision (issue 24): absent or 1 as first collected; a correction of a rejected record is sent
   * with the same id and the rejected revision + 1. A replayed revision is stored once.
   */
  versao: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Versão inválida.' })
      .int('Versão inválida.')
      .min(1, 'Versão inválida.')
      .optional(),
  ),
});
export type UploadEnvelope = z.infer<typeof uploadEnvelopeSchema>;

const longText = (max: number) => `O texto deve ter no máximo ${max} caracteres.`;

/** An optional text field as forms send it: absent, null or '' become ''. */
export const optionalText = (max = 500) =>
  z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().trim().max(max, longText(max)),
  );

/** A required text field: its message when empty. */
export const requiredText = (message: string, max = 500) =>
  z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().trim().min(1, message).max(max, longText(max)),
  );

/**
 * A text field holding a number as a Brazilian keyboard types it ('4,5' or '4.5'), kept with a point; '' when
 * optional and empty. `required` is the message when empty (its gender is the field's: 'A altura é obrigatória.').
 */
export const decimalText = (
  what: string,
  { required, max = 100_000 }: { required?: string; max?: number } = {},
) =>
  z
    .preprocess(
      (value) => (value === undefined || value === null ? '' : String(value).trim().replace(',', '.')),
      z.string(),
    )
    .superRefine((text, ctx) => {
      if (text === '') {
        if (required !== undefined) ctx.addIssue({ code: 'custom', message: required });
        return;
      }
      if (text.length > 20) {
        ctx.addIssue({ code: 'custom', message: `${what} deve ter no máximo 20 algarismos.` });
        return;
      }
      const number = Number(text);
      if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(number)) {
        ctx.addIssue({ code: 'custom', message: `${what} deve ser um número.` });
      } else if (number > max) {
        ctx.addIssue({ code: 'custom', message: `${what} deve ser no máximo ${max}.` });
      }
    });
