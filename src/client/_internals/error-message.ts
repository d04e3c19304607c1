/** `CODE: message: cause message` for the error and its causes. */
export function errorMessage(error: unknown): string {
  const parts: string[] = [];
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code;
      parts.push(typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message);
      cause = cause.cause;
    } else {
      parts.push(String(cause));
      cause = undefined;
    }
  }
  return parts.map((part) => part.trim()).filter((part) => part.length > 0).join(': ');
}
