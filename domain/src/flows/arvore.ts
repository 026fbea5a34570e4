// Flow arvore — Vegetação / Árvore: a tree near the network (SPEC.md sections 3, 4 'Vegetation', 5).
import { listField } from '../form-fields.ts';
import { z } from '../zod.ts';
import { decimalText, type FlowDefinition, optionalText } from './flow.ts';
import { FLOW_META } from './meta.ts';
import { campo, decimal, producaoCsv, registrosCsv } from '../export/columns.ts';

export const REDES = ['Baixa Tensão', 'Média Tensão', 'Ramal de Serviço'] as const;
export type Rede = (typeof REDES)[number];

/** Each distance field and the network it measures (in centimetres). */
export const DISTANCIAS = [
  { campo: 'distanciaRedeBT', rede: 'Baixa Tensão' },
  { campo: 'distanciaRedeMT', rede: 'Média Tensão' },
] as const;

/** Whether a network is ticked in contact or in projection: only then is its distance measured. */
export const redeMarcada = (
  arvore: { contatoRede: readonly string[]; projecaoRede: readonly string[] },
  rede: Rede,
): boolean => arvore.contatoRede.includes(rede) || arvore.projecaoRede.includes(rede);

const arvoreCamposSchema = z.object({
  contatoRede: listField(z.enum(REDES, { error: 'Rede inválida.' }), 'Contato com a rede inválido.'),
  projecaoRede: listField(z.enum(REDES, { error: 'Rede inválida.' }), 'Projeção sobre a rede inválida.'),
  distanciaRedeBT: decimalText('A distância da rede BT'),
  distanciaRedeMT: decimalText('A distância da rede MT'),
  diametroTronco: decimalText('O diâmetro do tronco'),
  fenotipo: optionalText(200),
  altura: decimalText('A altura', { required: 'A altura é obrigatória.', max: 200 }),
  observacao: optionalText(2000),
});

/** A BT/MT distance is sent only when its network is ticked in contact or projection, else '' (SPEC.md 5). */
export const arvoreDadosSchema = arvoreCamposSchema.transform((arvore) => ({
  ...arvore,
  distanciaRedeBT: redeMarcada(arvore, 'Baixa Tensão') ? arvore.distanciaRedeBT : '',
  distanciaRedeMT: redeMarcada(arvore, 'Média Tensão') ? arvore.distanciaRedeMT : '',
}));

/** Contact and projection flags per network type (SPEC.md 9). */
const flags = (header: string, lista: 'contatoRede' | 'projecaoRede') =>
  REDES.map((rede, index) => ({
    header: `${header}_${['BT', 'MT', 'RAMAL'][index]}`,
    valor: { contem: lista, valor: rede },
  }));

const COLUNAS_ARVORE = [
  ...flags('CONTATO', 'contatoRede'),
  ...flags('PROJECAO', 'projecaoRede'),
  decimal('DISTANCIA_REDE_BT', 'distanciaRedeBT'),
  decimal('DISTANCIA_REDE_MT', 'distanciaRedeMT'),
  decimal('DIAMETRO_TRONCO', 'diametroTronco'),
  campo('FENOTIPO', 'fenotipo'),
  decimal('ALTURA', 'altura'),
  campo('OBSERVACAO', 'observacao'),
];

export const arvoreFlow = {
  ...FLOW_META.arvore,
  menuRoute: 'addArvore',
  apiPath: 'arvore',
  byZona: true,
  byProject: null,
  syncStatus: 'Sincronizando arvores',
  syncTag: 'SINCRONIZACAO ARVORES',
  uploadErrorPrefix: 'Falha no envio da vegetacao',
  photoSlots: 10,
  photoList: false,
  keepExif: false,
  deleteAfterUpload: true,
  recordPath: 'arvore',
  noPhotosText: 'Não há fotos para esta vegetação',
  deleteConfirm: 'Confirma exclusão da vegetação?',
  numbered: false,
  map: {
    layer: 'Vegetação',
    color: '#1b5e20',
    hollowUntilCollected: false,
    alwaysListed: false,
    panelOrder: 6,
    paintOrder: 6,
  },
  exports: {
    csv: [
      registrosCsv('vegetacao', 'Vegetação (coleta)', COLUNAS_ARVORE),
      producaoCsv('vegetacao-producao', 'Vegetação (produção)'),
    ],
    kml: { label: 'Vegetação', nome: { campo: 'fenotipo' }, zip: false },
    colunas: COLUNAS_ARVORE,
  },
  dados: arvoreDadosSchema,
} satisfies FlowDefinition<typeof arvoreDadosSchema>;
