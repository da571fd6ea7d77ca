/** mulberry32: small, seeded, reproducible. */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  const text = (length: number) =>
    Array.from({ length }, () =>
      pick(['a', 'é', '\u0000', '💥', ' ', '%', '&', '=', '"', '\\']),
    ).join('');
  // What an HTTP client can put in a header: tab, printable ASCII and Latin-1 (Node refuses
  // the rest before sending, so NULs and emoji would test the client, not the service).
  const headerText = (length: number) =>
    Array.from({ length }, () => pick(['a', 'é', 'ÿ', '\t', ' ', '%', ';', '"', '\\', '('])).join(
      '',
    );
  return { next, int, pick, bytes, text, headerText };
}

export type Rng = ReturnType<typeof random>;
