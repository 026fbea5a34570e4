import { describe, expect, it } from 'vitest';
import { canEnterBackoffice, canOpenBackofficePath, isRole, menuFor } from '../src/roles.ts';

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
      'Webhooks',
      'Relatórios',
      'Revisão',
    ]);
    expect(labels(['supervisor'])).toEqual(['Home', 'Extrator', 'Relatórios', 'Supervisao', 'Revisão']);
    expect(labels(['administrador', 'supervisor'])).toEqual([
      'Home',
      'Clientes',
      'Projetos',
      'Usuarios',
      'Auditoria',
      'Importar pendentes',
      'Webhooks',
      'Extrator',
      'Relatórios',
      'Supervisao',
      'Revisão',
    ]);
    expect(labels(['tecnico'])).toEqual(['Home']);
    expect(labels(['interpretador'])).toEqual(['Home', 'Revisão']);
    expect(labels(['externo'])).toEqual(['Home', 'Revisão']);
  });

  it('lets administrador, supervisor, interpretador and externo into the back office, never a technician alone', () => {
    expect(canEnterBackoffice(['administrador'])).toBe(true);
    expect(canEnterBackoffice(['supervisor', 'tecnico'])).toBe(true);
    expect(canEnterBackoffice(['interpretador'])).toBe(true);
    expect(canEnterBackoffice(['externo'])).toBe(true);
    expect(canEnterBackoffice(['tecnico'])).toBe(false);
    expect(canEnterBackoffice([])).toBe(false);
  });

  it('opens only Home and Revisão to the interpretador and externo', () => {
    for (const roles of [['interpretador'], ['externo']]) {
      expect(canOpenBackofficePath(roles, '/backoffice')).toBe(true);
      expect(canOpenBackofficePath(roles, '/backoffice/')).toBe(true);
      expect(canOpenBackofficePath(roles, '/backoffice/revisao')).toBe(true);
      expect(canOpenBackofficePath(roles, '/backoffice/cliente')).toBe(false);
      expect(canOpenBackofficePath(roles, '/backoffice/supervisor')).toBe(false);
      expect(canOpenBackofficePath(roles, '/backoffice/revisaoX')).toBe(false);
    }
    expect(canOpenBackofficePath(['supervisor'], '/backoffice/cliente')).toBe(true);
    expect(canOpenBackofficePath(['administrador'], '/backoffice/extrator')).toBe(true);
  });

  it('knows the five roles and nothing else', () => {
    expect(['tecnico', 'interpretador', 'supervisor', 'administrador', 'externo'].every(isRole)).toBe(true);
    expect(isRole('root')).toBe(false);
  });
});
