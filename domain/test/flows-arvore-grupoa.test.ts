// The tree's and Grupo A's fields as the form and the upload send them (SPEC.md sections 3, 5).
import { describe, expect, it } from 'vitest';
import { arvoreDadosSchema } from '../src/flows/arvore.ts';
import { grupoADadosSchema } from '../src/flows/grupo-a.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

const arvore = {
  contatoRede: [],
  projecaoRede: [],
  distanciaRedeBT: '',
  distanciaRedeMT: '',
  diametroTronco: '',
  fenotipo: '',
  altura: '8,5',
  observacao: '',
};

describe('arvore', () => {
  it('takes the height with a comma or a point and keeps it with a point', () => {
    expect(arvoreDadosSchema.parse(arvore).altura).toBe('8.5');
    expect(arvoreDadosSchema.parse({ ...arvore, altura: '12.25' }).altura).toBe('12.25');
  });

  it('refuses a missing or non-numeric height in Portuguese', () => {
    expect(messages(arvoreDadosSchema.safeParse({ ...arvore, altura: '' }))).toEqual([
      'A altura é obrigatória.',
    ]);
    expect(messages(arvoreDadosSchema.safeParse({ ...arvore, altura: 'alta' }))).toEqual([
      'A altura deve ser um número.',
    ]);
    expect(messages(arvoreDadosSchema.safeParse({ ...arvore, altura: '250' }))).toEqual([
      'A altura deve ser no máximo 200.',
    ]);
    expect(messages(arvoreDadosSchema.safeParse({ ...arvore, diametroTronco: '-3' }))).toEqual([
      'O diâmetro do tronco deve ser um número.',
    ]);
  });

  it('sends a BT/MT distance only when its network is ticked in contact or projection', () => {
    const distancias = { distanciaRedeBT: '0', distanciaRedeMT: '150' };
    expect(arvoreDadosSchema.parse({ ...arvore, ...distancias })).toMatchObject({
      distanciaRedeBT: '',
      distanciaRedeMT: '',
    });
    expect(
      arvoreDadosSchema.parse({
        ...arvore,
        ...distancias,
        contatoRede: ['Baixa Tensão', 'Ramal de Serviço'],
      }),
    ).toMatchObject({ distanciaRedeBT: '0', distanciaRedeMT: '' });
    expect(
      arvoreDadosSchema.parse({ ...arvore, ...distancias, projecaoRede: ['Média Tensão'] }),
    ).toMatchObject({
      distanciaRedeBT: '',
      distanciaRedeMT: '150',
    });
  });

  it('reads the lists as a multipart upload sends them', () => {
    const dados = arvoreDadosSchema.parse({
      ...arvore,
      contatoRede: '["Baixa Tensão"]',
      projecaoRede: 'Média Tensão,Ramal de Serviço',
      distanciaRedeBT: '0',
      distanciaRedeMT: '80',
    });
    expect(dados).toMatchObject({
      contatoRede: ['Baixa Tensão'],
      projecaoRede: ['Média Tensão', 'Ramal de Serviço'],
      distanciaRedeBT: '0',
      distanciaRedeMT: '80',
    });
  });

  it('refuses a network outside the list', () => {
    expect(messages(arvoreDadosSchema.safeParse({ ...arvore, contatoRede: ['Alta Tensão'] }))).toEqual([
      'Rede inválida.',
    ]);
  });
});

describe('grupoA', () => {
  it('needs UC and Medidor', () => {
    expect(messages(grupoADadosSchema.safeParse({ uc: ' ', medidor: '' }))).toEqual([
      'A UC é obrigatória.',
      'O medidor é obrigatório.',
    ]);
  });

  it('reads the two ticks as a form sends them', () => {
    expect(
      grupoADadosSchema.parse({
        uc: '123',
        medidor: 'M-9',
        levantamentoAcompanhado: 'true',
        observacao: null,
      }),
    ).toEqual({
      uc: '123',
      medidor: 'M-9',
      levantamentoAcompanhado: true,
      levantamentoAutorizado: false,
      observacao: '',
    });
  });
});
