// An endpoint's path with its parameters filled in. Apart from contract.ts, so the web client's first page can
// build paths without bringing zod (issue 13: the first page's weight).

/** '/api/cliente/:id' with { id } → '/api/cliente/5f…', each value encoded. */
export function pathOf(
  declaration: { path: string },
  params: Readonly<Record<string, unknown>> = {},
): string {
  return declaration.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null)
      throw new Error(`${declaration.path}: falta o parâmetro ${name}`);
    return encodeURIComponent(String(value));
  });
}
