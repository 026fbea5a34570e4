// What the login page and the server share about signing in, without zod (the login page loads none): where to
// go after it, and the texts of the sign-in with the company's account (OpenID Connect, issue 42).

/** Where to go after login: '/{target}' for a plain in-app path, '/' otherwise (no open redirects). */
export function destinationFor(target: string | null): string {
  if (target === null) return '/';
  const clean = target.replace(/^\/+/, '');
  return /^[A-Za-z0-9_\-/]*$/.test(clean) ? `/${clean}` : '/';
}

export const OIDC_TEXTS = {
  naoCadastrado: 'Usuário não cadastrado no Novus. Peça acesso ao administrador.',
  semLogin: 'A conta da empresa não informou o login do usuário. Peça ajuda ao administrador.',
  tentativaInvalida: 'Entrada pela conta da empresa inválida ou expirada. Tente entrar novamente.',
  naoConfirmada: 'A conta da empresa não confirmou a entrada. Tente entrar novamente.',
  naoAutorizada: 'A entrada pela conta da empresa foi cancelada ou recusada.',
  indisponivel: 'O provedor da conta da empresa não respondeu. Tente novamente ou entre com login e senha.',
  voltar: 'Voltar para o login',
  saiu: 'Você saiu do Novus.',
  sairDoProvedor: 'Sair também da conta da empresa',
  ou: 'ou',
} as const;
