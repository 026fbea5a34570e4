/** Where to go after login: '/{target}' for a plain in-app path, '/' otherwise (no open redirects). */
export function destinationFor(target: string | null): string {
  if (target === null) return '/';
  const clean = target.replace(/^\/+/, '');
  return /^[A-Za-z0-9_\-/]*$/.test(clean) ? `/${clean}` : '/';
}
