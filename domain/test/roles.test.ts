import { describe, expect, it } from 'vitest';
import { canEnterBackoffice, isRole, menuFor } from '../src/roles.ts';

describe('back-office menu (SPEC.md section 6)', () => {
  const labels = (roles: string[]) => menuFor(roles).map((entry) => entry.label);

  it('shows administration to administrador, extraction to supervisor, reports to both, Home to all', () => {
    expect(labels(['administrador'])).toEqual([
      'Home',
      'Clientes',
      'Projetos',
      'Usuarios',
      'Auditoria',
      'Importar pendentes',
      'Relatórios',
    ]);
    expect(labels(['supervisor'])).toEqual(['Home', 'Extrator', 'Relatórios', 'Supervisao']);
    expect(labels(['administrador', 'supervisor'])).toEqual([
      'Home',
      'Clientes',
      'Projetos',
      'Usuarios',
      'Auditoria',
      'Importar pendentes',
      'Extrator',
      'Relatórios',
      'Supervisao',
    ]);
    expect(labels(['tecnico'])).toEqual(['Home']);
  });

  it('lets only administrador and supervisor into the back office', () => {
    expect(canEnterBackoffice(['administrador'])).toBe(true);
    expect(canEnterBackoffice(['supervisor', 'tecnico'])).toBe(true);
    expect(canEnterBackoffice(['tecnico', 'interpretador', 'externo'])).toBe(false);
    expect(canEnterBackoffice([])).toBe(false);
  });

  it('knows the five roles and nothing else', () => {
    expect(['tecnico', 'interpretador', 'supervisor', 'administrador', 'externo'].every(isRole)).toBe(true);
    expect(isRole('root')).toBe(false);
  });
});
