// Roles a user may hold (SPEC.md section 6) and what each may see in the back office.
export const ROLES = ['tecnico', 'interpretador', 'supervisor', 'administrador', 'externo'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  tecnico: 'Técnico',
  interpretador: 'Interpretador',
  supervisor: 'Supervisor',
  administrador: 'Administrador',
  externo: 'Sistema Externo',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function canEnterBackoffice(roles: readonly string[]): boolean {
  return roles.includes('administrador') || roles.includes('supervisor');
}

export interface MenuEntry {
  label: string;
  path: string;
  visible: (roles: readonly string[]) => boolean;
}

const isAdmin = (roles: readonly string[]) => roles.includes('administrador');
const isSupervisor = (roles: readonly string[]) => roles.includes('supervisor');
const isAdminOrSupervisor = (roles: readonly string[]) => isAdmin(roles) || isSupervisor(roles);

/**
 * The back-office menu of SPEC.md section 6, in order; Relatórios (the reports of SPEC.md section 2) and
 * Auditoria (the audit log, issue 12) are ours.
 */
export const BACKOFFICE_MENU: readonly MenuEntry[] = [
  { label: 'Home', path: '/backoffice/', visible: () => true },
  { label: 'Clientes', path: '/backoffice/cliente', visible: isAdmin },
  { label: 'Projetos', path: '/backoffice/projeto', visible: isAdmin },
  { label: 'Usuarios', path: '/backoffice/usuario', visible: isAdmin },
  { label: 'Auditoria', path: '/backoffice/auditoria', visible: isAdmin },
  { label: 'Importar pendentes', path: '/backoffice/pendentes', visible: isAdmin },
  { label: 'Extrator', path: '/backoffice/extrator', visible: isSupervisor },
  { label: 'Relatórios', path: '/backoffice/relatorio', visible: isAdminOrSupervisor },
  { label: 'Supervisao', path: '/backoffice/supervisor', visible: isSupervisor },
];

export function menuFor(roles: readonly string[]): MenuEntry[] {
  return BACKOFFICE_MENU.filter((entry) => entry.visible(roles));
}
