// Flow fiscalizacao — Fiscalização: an inspection of a pole, its equipment and meter, preloaded with the
// original values; the technician ticks 'Corrigir' on a field to send its corrected value (SPEC.md 3, 4, 9).
import { FISCALIZACAO_COLUMNS, FISCALIZACAO_FUSO } from '../geo/point-columns.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import {
  field,
  pointFiles,
  pontoCoordenadas,
  pontoJson,
  pontoText,
  positionKey,
  toPreloaded,
} from './preload.ts';
import { campo, decimal, registrosCsv } from '../export/columns.ts';

/** The original values a project file carries, in the groups the form shows (pole, equipment, meter). */
export const FISCALIZACAO_GRUPOS = [
  {
    titulo: 'Poste',
    campos: [
      { campo: 'barramento', label: 'Barramento' },
      { campo: 'tipo', label: 'Tipo' },
      { campo: 'material', label: 'Material' },
      { campo: 'altura', label: 'Altura' },
      { campo: 'carga', label: 'Carga' },
    ],
  },
  {
    titulo: 'Equipamento',
    campos: [
      { campo: 'tipoEquipamento', label: 'Tipo de equipamento' },
      { campo: 'placa', label: 'Placa' },
      { campo: 'potencia', label: 'Potência' },
      { campo: 'fases', label: 'Fases' },
    ],
  },
  {
    titulo: 'Medidor',
    campos: [
      { campo: 'medidor', label: 'Medidor' },
      { campo: 'faseConsumidor', label: 'Fase do consumidor' },
    ],
  },
] as const;

export type CampoFiscalizado = (typeof FISCALIZACAO_GRUPOS)[number]['campos'][number]['campo'];

/** barramento → correcaoBarramento: the field the corrected value is sent as. */
export function correcaoField(campo: CampoFiscalizado): `correcao${Capitalize<CampoFiscalizado>}` {
  return `correcao${campo.charAt(0).toUpperCase()}${campo.slice(1)}` as `correcao${Capitalize<CampoFiscalizado>}`; // template of the same string
}

const correcao = () => optionalText(200);

export const fiscalizacaoDadosSchema = z.object({
  correcaoBarramento: correcao(),
  correcaoTipo: correcao(),
  correcaoMaterial: correcao(),
  correcaoAltura: correcao(),
  correcaoCarga: correcao(),
  correcaoTipoEquipamento: correcao(),
  correcaoPlaca: correcao(),
  correcaoPotencia: correcao(),
  correcaoFases: correcao(),
  correcaoMedidor: correcao(),
  correcaoFaseConsumidor: correcao(),
  observacao: optionalText(2000),
});

const pontoFiscalizacaoJson = z.object({
  coordenadas: pontoCoordenadas,
  ...Object.fromEntries(
    FISCALIZACAO_COLUMNS.filter((column) => column !== 'x' && column !== 'y').map((column) => [
      column,
      pontoText,
    ]),
  ),
});

const header = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();

/** The inspected fields that are measures, which may have decimals (a 10.5 m pole, a 112.5 kVA transformer). */
const MEDIDAS: readonly CampoFiscalizado[] = ['altura', 'carga', 'potencia'];

/** Each inspected field twice: the original value and the corrected one (SPEC.md 9). */
const COLUNAS_FISCALIZACAO = [
  ...FISCALIZACAO_GRUPOS.flatMap((grupo) =>
    grupo.campos.flatMap(({ campo: name }) => {
      const coluna = MEDIDAS.includes(name) ? decimal : campo;
      return [coluna(header(name), name), coluna(`${header(name)}_CORRIGIDO`, correcaoField(name))];
    }),
  ),
  campo('OBSERVACAO', 'observacao'),
];

export const fiscalizacaoFlow = {
  ...FLOW_META.fiscalizacao,
  menuRoute: 'addFiscalizacao',
  apiPath: 'fiscalizacao',
  byZona: true,
  byProject: { path: 'fiscalizacao/projeto/:projeto', by: 'nome' },
  syncStatus: 'Sincronizando Fiscalizacao',
  syncTag: 'SINCRONIZACAO FISCALIZACAO',
  uploadErrorPrefix: 'Falha no envio de Fiscalizacao',
  photoSlots: 10,
  photoList: false,
  keepExif: true,
  deleteAfterUpload: false,
  recordPath: 'fiscalizacao',
  noPhotosText: 'Não há fotos para este item',
  deleteConfirm: 'Confirma exclusão do ponto?',
  numbered: false,
  map: {
    layer: 'Fiscalização',
    color: '#0d47a1',
    hollowUntilCollected: true,
    alwaysListed: false,
    panelOrder: 8,
    paintOrder: 3,
  },
  preload: {
    formField: 'pontosFiscalizacao',
    fileField: 'arquivoFiscalizacao',
    fileLabel: 'Arquivo de fiscalização',
    accept: '.txt,.csv',
    // always UTM zone 22, band L, whatever the project's fuso (SPEC.md section 9: only BDGD uses the project's)
    parse: async (text) => (await pointFiles()).parseFiscalizacaoPoints(text).map(toPreloaded),
    json: pontoJson(pontoFiscalizacaoJson),
    key: (ponto) => `${field(ponto, 'placa')}|${positionKey(ponto)}`,
    utmZone: FISCALIZACAO_FUSO,
    help: () =>
      `Primeira linha com os nomes das colunas: ${FISCALIZACAO_COLUMNS.join(';')}. x e y em UTM, fuso ${FISCALIZACAO_FUSO} banda L, qualquer que seja o fuso do projeto.`,
    formMapColor: 'blue',
  },
  exports: {
    csv: [registrosCsv('fiscalizacao', 'Fiscalização', COLUNAS_FISCALIZACAO)],
    kml: { label: 'Fiscalização', nome: { campo: 'placa' }, zip: false },
    colunas: COLUNAS_FISCALIZACAO,
  },
  dados: fiscalizacaoDadosSchema,
} satisfies FlowDefinition<typeof fiscalizacaoDadosSchema>;
