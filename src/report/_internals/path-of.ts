
/** The path and query of a URL (`/api/public/users?page=2`), or the text itself when not a URL. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}
