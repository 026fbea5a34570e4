// User-facing texts of SPEC.md section 8 that more than one screen shows.
export const LOG_SUFFIX = ' Veja o log para mais informações.';
export const NO_PERMISSION = 'Usuario nao tem permissao para esse recurso';
export const RENDER_CRASH = 'Alguma coisa deu errado.';

/** Validation errors are joined by ' | ' on creation and the first one is used on edit (SPEC.md section 5). */
export function joinErrors(
  body: { message?: string; errors?: { msg: string }[] },
  mode: 'create' | 'edit',
): string {
  const msgs = (body.errors ?? []).map((e) => e.msg).filter((m) => m.length > 0);
  if (msgs.length === 0) return body.message ?? '';
  return mode === 'create' ? msgs.join(' | ') : msgs[0];
}
