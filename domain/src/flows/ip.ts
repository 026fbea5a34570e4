// Flow ip — Uso Mútuo / IP: a pole's mutual use and public lighting, a point that may be preloaded from the
// project's IP file and is numbered by the server as BDGD is (SPEC.md sections 3, 4 'Form interplay, ip', 5).
import { booleanField } from '../form-fields.ts';
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
import { campo, registrosCsv, simNao } from '../export/columns.ts';

export const ESCOLHA_UM_ITEM = 'POR FAVOR ESCOLHA UM DOS ITENS';
export const CONFIRMA_FOTOS =
  'TODOS ITENS DO POSTE FORAM FOTOGRAFADOS? SE SIM "OK", SE NÃO "CANCELAR" E CAPTURE AS FOTOS ANTES DE GRAVAR';

export const ipDadosSchema = z
  .object({
    possuiUsoMutuo: booleanField(),
    possuiIP: booleanField(),
    naoPossuiIPouUsoMutuo: booleanField(),
    /** The IP anomaly: only with IP. */
    possuiIrregularidade: booleanField(),
    possuiAnomaliaPoste: booleanField(),
    bdgd: booleanField(),
    quantidadeCompartilhamento: z.preprocess(
      (value) => (value === undefined || value === null || value === '' ? 0 : value),
      z.coerce
        .number({ error: 'A quantidade de compartilhamentos deve ser um número.' })
        .int('A quantidade de compartilhamentos deve ser um número inteiro.')
        .min(0, 'A quantidade de compartilhamentos não pode ser negativa.')
        .max(99, 'A quantidade de compartilhamentos deve ser no máximo 99.'),
    ),
    idConcessionaria: optionalText(100),
    idCircuito: optionalText(100),
  })
  .superRefine((ip, ctx) => {
    if (!ip.possuiIP && !ip.possuiUsoMutuo && !ip.naoPossuiIPouUsoMutuo && !ip.bdgd) {
      ctx.addIssue({ code: 'custom', message: ESCOLHA_UM_ITEM, path: ['possuiIP'] });
    }
    if (ip.naoPossuiIPouUsoMutuo && (ip.possuiIP || ip.possuiUsoMutuo)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Sem uso mútuo nem IP não combina com uso mútuo ou IP.',
        path: ['naoPossuiIPouUsoMutuo'],
      });
    }
    if (ip.possuiIrregularidade && !ip.possuiIP) {
      ctx.addIssue({
        code: 'custom',
        message: 'A anomalia de IP só vale quando o poste possui IP.',
        path: ['possuiIrregularidade'],
      });
    }
  });

const pontoIpJson = z.object({
  coordenadas: pontoCoordenadas,
  idConcessionaria: pontoText,
  idCircuito: pontoText,
  quantidadeCompartilhamento: z.coerce.number().int().min(0).default(0),
});

const COLUNAS_IP = [
  campo('SEQUENCIAL', 'sequencial'),
  campo('ID_CONCESSIONARIA', 'idConcessionaria'),
  campo('ID_CIRCUITO', 'idCircuito'),
  simNao('POSSUI_USO_MUTUO', 'possuiUsoMutuo'),
  simNao('POSSUI_IP', 'possuiIP'),
  simNao('NAO_POSSUI_IP_OU_USO_MUTUO', 'naoPossuiIPouUsoMutuo'),
  simNao('POSSUI_IRREGULARIDADE', 'possuiIrregularidade'),
  simNao('POSSUI_ANOMALIA_POSTE', 'possuiAnomaliaPoste'),
  simNao('BDGD', 'bdgd'),
  campo('QUANTIDADE_COMPARTILHAMENTO', 'quantidadeCompartilhamento'),
];

export const ipFlow = {
  ...FLOW_META.ip,
  menuRoute: 'addUsoIP',
  apiPath: 'ip',
  byZona: true,
  byProject: { path: 'ip/:projeto', by: 'nome' },
  syncStatus: 'Sincronizando pontos',
  syncTag: 'SINCRONIZACAO PONTOS',
  uploadErrorPrefix: 'Falha no envio do ponto',
  photoSlots: 10,
  photoList: false,
  keepExif: false,
  deleteAfterUpload: false,
  recordPath: 'ip',
  noPhotosText: 'Não há fotos para este uso mútuo',
  deleteConfirm: 'Confirma exclusão do ponto?',
  numbered: true,
  map: {
    layer: 'Uso M./IP',
    color: '#2e7d32',
    hollowUntilCollected: true,
    alwaysListed: true,
    panelOrder: 3,
    paintOrder: 1,
  },
  preload: {
    formField: 'pontosIP',
    fileField: 'arquivoIP',
    fileLabel: 'Arquivo de pontos IP',
    accept: '.txt',
    parse: async (text) => (await pointFiles()).parseIpPoints(text).map(toPreloaded),
    json: pontoJson(pontoIpJson),
    key: (ponto) => `${field(ponto, 'idConcessionaria')}|${positionKey(ponto)}`,
    utmZone: null,
    help: () =>
      'Arquivo .txt separado por ";", sem cabeçalho: longitude;latitude;idConcessionaria;idCircuito;quantidadeCompartilhamento',
    formMapColor: 'green',
  },
  exports: {
    csv: [registrosCsv('ip', 'Uso Mútuo/IP', COLUNAS_IP, { porTecnico: true })],
    kml: { label: 'Uso Mútuo/IP', nome: { campo: 'idConcessionaria' }, zip: false },
    colunas: COLUNAS_IP,
  },
  dados: ipDadosSchema,
} satisfies FlowDefinition<typeof ipDadosSchema>;
