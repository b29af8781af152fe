const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string holding half of a UTF-16 surrogate pair: not valid Unicode, and no UTF-8 form. */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/**
 * Where in a parsed JSON value (its strings and object keys) a lone surrogate sits, as a field
 * path (`.a.b[2]`), or undefined. JSON's `\ud800` escape makes one; protobuf's UTF-8 encoding
 * would silently turn it into U+FFFD, so a process that forwards JSON over gRPC checks first.
 */
export function loneSurrogatePath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = loneSurrogatePath(value[i], `${path}[${i}]`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (hasLoneSurrogate(key)) return `${path}.${key.replace(LONE_SURROGATE, '\uFFFD')}`;
      const hit = loneSurrogatePath(v, `${path}.${key}`);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}
