// The Auditoria screen: an entry's changed fields in the forms' words, and the table a person reads (rendered to
// markup: the web tests have no DOM).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Entrada } from '@novus/domain/api/auditoria';
import { AuditoriaTable } from '../src/backoffice/auditoria/AuditoriaTable';
import {
  entidadeLabel,
  formatQuando,
  formatValor,
  mudancas,
  objetoNome,
} from '../src/backoffice/auditoria/auditoria-view';

function entrada(fields: Partial<Entrada>): Entrada {
  return {
    _id: '1',
    em: '2026-03-05T13:04:05.000Z',
    usuario: { _id: 'u1', nome: 'Ana de Tal' },
    entidade: 'cliente',
    entidadeId: 'c1',
    acao: 'alterar',
    antes: null,
    depois: null,
    ...fields,
  };
}

describe('audit entry view', () => {
  it('lists only the fields an update changed, as before → after', () => {
    const antes = { nome: 'Curitiba', fluxos: ['hc', 'ip'], fuso: 22, disponivelInterpres: false };
    const depois = { nome: 'Curitiba Sul', fluxos: ['hc', 'ip'], fuso: 23, disponivelInterpres: true };
    expect(mudancas({ antes, depois })).toEqual([
      { campo: 'Nome', antes: 'Curitiba', depois: 'Curitiba Sul' },
      { campo: 'Fuso', antes: '22', depois: '23' },
      { campo: 'Disponibilizar no Interpres', antes: 'Não', depois: 'Sim' },
    ]);
    expect(mudancas({ antes, depois: antes })).toEqual([]);
  });

  it('shows every field of a creation after and of a deletion before', () => {
    const usuario = { login: 'joana', roles: ['tecnico', 'supervisor'], cliente: null, zonas: [] };
    expect(mudancas({ antes: null, depois: usuario })).toEqual([
      { campo: 'Login', antes: '—', depois: 'joana' },
      { campo: 'Perfis', antes: '—', depois: 'Técnico, Supervisor' },
      { campo: 'Cliente', antes: '—', depois: '—' },
      { campo: 'Zonas', antes: '—', depois: '—' },
    ]);
    expect(mudancas({ antes: { nome: 'Copel' }, depois: null })).toEqual([
      { campo: 'Nome', antes: 'Copel', depois: '—' },
    ]);
  });

  it('says a password changed without any value, and names flows and numbers in pt-BR', () => {
    expect(
      mudancas({ antes: { lastName: 'Campo' }, depois: { lastName: 'Campo', senhaAlterada: true } }),
    ).toEqual([{ campo: 'Senha', antes: '—', depois: 'alterada' }]);
    expect(formatValor('fluxos', ['hc', 'ip'])).toBe('Unidade, Uso Mútuo / IP');
    expect(formatValor('hectares', 1234.5)).toBe('1.234,5');
    expect(formatValor('zonas', ['Zona Batel', 'Zona Centro'])).toBe('Zona Batel, Zona Centro');
  });

  it('names the object and the kind of import, and writes the time in Brasília', () => {
    expect(entidadeLabel('zonas')).toBe('Zoneamento (KML)');
    expect(entidadeLabel('pontos:ip')).toBe('Arquivo de pontos IP');
    expect(entidadeLabel('usuario')).toBe('Usuário');
    expect(objetoNome(entrada({ entidade: 'usuario', antes: { login: 'joana' } }))).toBe('joana');
    expect(objetoNome(entrada({ entidade: 'zonas', depois: { projeto: 'Curitiba', zonas: [] } }))).toBe(
      'Curitiba',
    );
    expect(formatQuando('2026-03-05T02:04:05Z')).toBe('04/03/2026 23:04:05');
  });

  it('renders a row per entry with who, what, the action and the changes', () => {
    const html = renderToStaticMarkup(
      createElement(AuditoriaTable, {
        entradas: [
          entrada({ _id: '2', antes: { nome: 'Copel' }, depois: { nome: 'Copel DIS' } }),
          entrada({
            _id: '1',
            entidade: 'pontos:ip',
            acao: 'importar',
            antes: { projeto: 'Curitiba', pontos: 4 },
            depois: { projeto: 'Curitiba', pontos: 2 },
          }),
        ],
      }),
    );
    for (const header of ['Quando', 'Usuário', 'Entidade', 'Ação', 'Antes → Depois']) {
      expect(html).toContain(`>${header}</th>`);
    }
    expect(html.match(/<tr/g)).toHaveLength(3);
    expect(html).toContain('05/03/2026 10:04:05');
    expect(html).toContain('Ana de Tal');
    expect(html).toContain('Alteração');
    expect(html).toContain('<strong>Nome:</strong> Copel → Copel DIS');
    expect(html).toContain('Importação');
    expect(html).toContain('Arquivo de pontos IP');
    expect(html).toContain('<strong>Pontos:</strong> 4 → 2');
  });
});
