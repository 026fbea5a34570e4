// A package's attribution comes from its metadata, written by whoever made the archive, and Leaflet shows an
// attribution as HTML: only its text goes through, escaped.

export function atribuicaoSegura(atribuicao: string | null | undefined): string {
  if (atribuicao === null || atribuicao === undefined || atribuicao.trim() === '') return '';
  const texto = new DOMParser().parseFromString(atribuicao, 'text/html').body.textContent ?? '';
  return texto.trim().replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
