/** FNV-1a over a string: a stable 32-bit hash (not for security). */
export function stableHash(text: string, seed = 2166136261): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash >>> 0;
}

/** `length` lowercase letters derived from `text` (two hashes chained, base 26). */
export function lowercaseDigest(text: string, length: number): string {
  let out = '';
  let hash = stableHash(text);
  for (let i = 0; out.length < length; i++) {
    hash = stableHash(`${i}:${text}`, hash);
    let h = hash;
    for (let k = 0; k < 6 && out.length < length; k++) {
      out += String.fromCharCode(97 + (h % 26));
      h = Math.floor(h / 26);
    }
  }
  return out;
}
