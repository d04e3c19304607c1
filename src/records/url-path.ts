/** The path of a request URL (absolute, as exchanges keep it); the text itself when it is no URL. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
