// Flow lpt2 — LPT Agiltec: records of the project's LPT Agiltec file, chosen from a list and collected with
// updated contacts (SPEC.md sections 2, 3, 4, 5).
import { LPT_AGILTEC_COLUMNS } from '../geo/point-columns.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, optionalText, requiredText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import { field, pointFiles, pontoJson, pontoText, toPreloaded } from './preload.ts';
import { campo, registrosCsv } from '../export/columns.ts';

export const POSSUI_CASA = ['Sim', 'Não', 'Em construção'] as const;

export const lptAgiltecDadosSchema = z.object({
  telefoneAtualizado: requiredText('O telefone é obrigatório.', 40),
  emailAtualizado: optionalText(200),
  possuiCasa: z.enum(POSSUI_CASA, { error: "'Possui casa?' é obrigatório." }),
  configuraMoradia: optionalText(500),
  observacao: optionalText(2000),
});

const pontoLptAgiltecJson = z.object({
  ...Object.fromEntries(LPT_AGILTEC_COLUMNS.map((column) => [column, pontoText])),
  os: z.preprocess(
    (value) => (value === undefined || value === null ? '' : String(value)),
    z.string().min(1, 'os é obrigatório.').max(500, 'O texto deve ter no máximo 500 caracteres.'),
  ),
});

const COLUNAS_LPT_AGILTEC = [
  ...LPT_AGILTEC_COLUMNS.map((name) => campo(name.replace(/(\d)$/, '_$1').toUpperCase(), name)),
  campo('TELEFONE_ATUALIZADO', 'telefoneAtualizado'),
  campo('EMAIL_ATUALIZADO', 'emailAtualizado'),
  campo('POSSUI_CASA', 'possuiCasa'),
  campo('CONFIGURA_MORADIA', 'configuraMoradia'),
  campo('OBSERVACAO', 'observacao'),
];

export const lptAgiltecFlow = {
  ...FLOW_META.lpt2,
  menuRoute: 'addLPTv2',
  apiPath: 'lptv2',
  byZona: false,
  byProject: { path: 'lptv2/projeto/:projeto', by: 'nome' },
  syncStatus: 'Sincronizando LPT Agiltec',
  syncTag: 'SINCRONIZACAO LPT AGILTEC',
  uploadErrorPrefix: 'Falha no envio de LPT Agiltec',
  photoSlots: 10,
  photoList: false,
  keepExif: true,
  deleteAfterUpload: false,
  recordPath: 'lptv2',
  noPhotosText: 'Não há fotos para este item',
  deleteConfirm: 'Confirma exclusão do item?',
  numbered: false,
  map: {
    layer: 'LPT Agiltec',
    color: '#5d4037',
    hollowUntilCollected: false,
    alwaysListed: false,
    panelOrder: 9,
    paintOrder: 5,
  },
  preload: {
    formField: 'pontosLPTv2',
    fileField: 'arquivoLPTv2',
    fileLabel: 'Arquivo LPT Agiltec',
    accept: '.txt,.csv',
    parse: async (text) => (await pointFiles()).parseLptAgiltecPoints(text).map(toPreloaded),
    json: pontoJson(pontoLptAgiltecJson),
    key: (ponto) => field(ponto, 'os'),
    utmZone: null,
    help: () => `Primeira linha de cabeçalho, depois as colunas: ${LPT_AGILTEC_COLUMNS.join(';')}`,
    formMapColor: null,
  },
  exports: {
    csv: [registrosCsv('lpt-agiltec', 'LPT Agiltec', COLUNAS_LPT_AGILTEC)],
    kml: { label: 'LPT Agiltec', nome: { campo: 'nome' }, zip: false },
    colunas: COLUNAS_LPT_AGILTEC,
  },
  dados: lptAgiltecDadosSchema,
} satisfies FlowDefinition<typeof lptAgiltecDadosSchema>;
