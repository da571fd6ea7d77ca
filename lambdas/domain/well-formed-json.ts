/**
 * JSON as this service takes it from anyone: `\ud800`-style escapes can
 * carry lone surrogates, which are not text (UTF-8 has no encoding for them,
 * so DynamoDB, S3 metadata and `encodeURIComponent` refuse them). Every
 * string and every key comes out well formed, a lone surrogate replaced by
 * U+FFFD, before any rule or store sees it.
 */
export function parseWellFormedJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'string') return value.toWellFormed();
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.every((key) => key.isWellFormed())) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [key.toWellFormed(), inner]),
      );
    }
    return value;
  });
}
