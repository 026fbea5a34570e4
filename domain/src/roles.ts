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

const BACKOFFICE_ROLES: readonly Role[] = ['administrador', 'supervisor', 'interpretador', 'externo'];

/** The back office's people: administrador and supervisor, and (issue 24) the interpretador and externo, who read. */
export function canEnterBackoffice(roles: readonly string[]): boolean {
  return BACKOFFICE_ROLES.some((role) => roles.includes(role));
}

export interface MenuEntry {
  label: string;
  path: string;
  visible: (roles: readonly string[]) => boolean;
}

const isAdmin = (roles: readonly string[]) => roles.includes('administrador');
const isSupervisor = (roles: readonly string[]) => roles.includes('supervisor');
const isAdminOrSupervisor = (roles: readonly string[]) => isAdmin(roles) || isSupervisor(roles);
const isBackofficeReader = (roles: readonly string[]) => canEnterBackoffice(roles);

/**
 * The back-office menu of SPEC.md section 6, in order; Relatórios (the reports of SPEC.md section 2) and
 * Auditoria (the audit log, issue 12) and Webhooks (issue 27) are ours.
 */
export const BACKOFFICE_MENU: readonly MenuEntry[] = [
  { label: 'Home', path: '/backoffice/', visible: () => true },
  { label: 'Clientes', path: '/backoffice/cliente', visible: isAdmin },
  { label: 'Projetos', path: '/backoffice/projeto', visible: isAdmin },
  { label: 'Usuarios', path: '/backoffice/usuario', visible: isAdmin },
  { label: 'Auditoria', path: '/backoffice/auditoria', visible: isAdmin },
  { label: 'Importar pendentes', path: '/backoffice/pendentes', visible: isAdmin },
  { label: 'Webhooks', path: '/backoffice/webhooks', visible: isAdmin },
  { label: 'Extrator', path: '/backoffice/extrator', visible: isSupervisor },
  { label: 'Relatórios', path: '/backoffice/relatorio', visible: isAdminOrSupervisor },
  { label: 'Supervisao', path: '/backoffice/supervisor', visible: isSupervisor },
  { label: 'Revisão', path: '/backoffice/revisao', visible: isBackofficeReader },
];

export function menuFor(roles: readonly string[]): MenuEntry[] {
  return BACKOFFICE_MENU.filter((entry) => entry.visible(roles));
}

/**
 * Whether a back-office path opens for these roles. The administrador and the supervisor open any (the server
 * answers what they may not do, as before issue 24); the interpretador and externo only Home and their menu's
 * screens.
 */
export function canOpenBackofficePath(roles: readonly string[], pathname: string): boolean {
  if (isAdminOrSupervisor(roles)) return true;
  const path = pathname.replace(/\/+$/, '');
  if (path === '/backoffice') return true;
  return menuFor(roles).some((entry) => {
    const base = entry.path.replace(/\/+$/, '');
    return base !== '/backoffice' && (path === base || path.startsWith(`${base}/`));
  });
}
