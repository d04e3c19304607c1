/**
 * The form of a §2.5 pagination link against the request it answered: whether it repeats every
 * query parameter the request sent (`page_size=7&page=2`: keep-query), and whether it carries
 * `page` alone (page-only). Null for a link that is not an absolute URL. §2.5 allows both forms;
 * the profile's `page_links` may declare one (the pagination walk holds links to it, `init` finds it).
 */
export function linkForm(url: string, sent: Readonly<Record<string, string | number>>): { readonly missing: readonly string[]; readonly pageOnly: boolean } | null {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return null;
  }
  return {
    missing: Object.entries(sent).filter(([k, v]) => params.get(k) !== String(v)).map(([k, v]) => `${k}=${v}`),
    pageOnly: [...params.keys()].every((k) => k === 'page'),
  };
}
