// Flow bdgd — BDGD: an asset of the utility's geographic database, preloaded from the project's BDGD file or
// drawn on the map; its sequencial is decided by the server (SPEC.md sections 3, 4, 9).
import { BDGD_ATIVOS } from '../geo/point-columns.ts';
import { FileParseError } from '../geo/parse-error.ts';
import { booleanField } from '../form-fields.ts';
import { z } from '../zod.ts';
import { type FlowDefinition, fusoNeededText, optionalText } from './flow.ts';
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
import { campo, registrosCsv, simNao } from '../export/columns.ts';

export { BDGD_ATIVOS };

const BDGD_FILE = { fileLabel: 'Arquivo BDGD' };

export const bdgdDadosSchema = z.object({
  ativo: z.enum(BDGD_ATIVOS, { error: 'O tipo de ativo é obrigatório.' }),
  idConcessionaria: optionalText(100),
  /** Set when the technician moved a preloaded asset to where it really is. */
  coordenadasAtualizadas: booleanField(),
  observacao: optionalText(2000),
});

const pontoBdgdJson = z.object({
  coordenadas: pontoCoordenadas,
  idConcessionaria: pontoText,
  ativo: pontoText,
  sequencial: z.coerce.number().int().min(1).optional(),
});

const COLUNAS_BDGD = [
  campo('SEQUENCIAL', 'sequencial'),
  campo('ATIVO', 'ativo'),
  campo('ID_CONCESSIONARIA', 'idConcessionaria'),
  simNao('COORDENADAS_ATUALIZADAS', 'coordenadasAtualizadas'),
  campo('OBSERVACAO', 'observacao'),
];

export const bdgdFlow = {
  ...FLOW_META.bdgd,
  menuRoute: 'addBDGD',
  apiPath: 'bdgd',
  byZona: true,
  byProject: { path: 'bdgd/projeto/:projeto', by: 'id' },
  syncStatus: 'Sincronizando BDGD',
  syncTag: 'SINCRONIZACAO BDGD',
  uploadErrorPrefix: 'Falha no envio de BDGD',
  photoSlots: 10,
  photoList: true,
  keepExif: false,
  deleteAfterUpload: false,
  recordPath: 'bdgd',
  noPhotosText: 'Não há fotos para este item',
  deleteConfirm: 'Confirma exclusão do ponto?',
  numbered: true,
  map: {
    layer: 'BDGD',
    color: '#00bcd4',
    hollowUntilCollected: true,
    alwaysListed: true,
    panelOrder: 5,
    paintOrder: 2,
  },
  preload: {
    formField: 'pontosBDGD',
    fileField: 'arquivoBDGD',
    ...BDGD_FILE,
    accept: '.txt,.csv',
    parse: async (text, fuso) => {
      if (fuso === undefined) {
        throw new FileParseError('escolha o fuso do projeto para converter as coordenadas UTM.');
      }
      return (await pointFiles()).parseBdgdPoints(text, fuso).map(toPreloaded);
    },
    json: pontoJson(pontoBdgdJson),
    key: (ponto) => `${field(ponto, 'idConcessionaria')}|${field(ponto, 'ativo')}|${positionKey(ponto)}`,
    utmZone: 'projeto',
    help: (fuso) =>
      fuso === ''
        ? `idConcessionaria;ativo;x;y sem cabeçalho, UTM no fuso do projeto. ${fusoNeededText(BDGD_FILE)}`
        : `idConcessionaria;ativo;x;y sem cabeçalho, UTM no fuso do projeto (fuso ${fuso}).`,
    formMapColor: 'red',
  },
  exports: {
    csv: [registrosCsv('bdgd', 'BDGD', COLUNAS_BDGD)],
    kml: { label: 'BDGD', nome: { campo: 'sequencial' }, zip: true },
    colunas: COLUNAS_BDGD,
  },
  dados: bdgdDadosSchema,
} satisfies FlowDefinition<typeof bdgdDadosSchema>;
