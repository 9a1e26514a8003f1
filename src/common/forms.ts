/**
 * Coercions for values that arrive as text in multipart forms (and as JSON types in JSON bodies), for use in
 * class-transformer `@Transform`s before validation. A value that cannot be read is returned unchanged, so the
 * validators reject it with a message naming the field.
 */

export function formTrim(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** `true`/`false` (also 1/0, on/off, yes/no) → boolean. */
export function formBoolean(value: unknown): unknown {
  if (typeof value !== 'string') {
    return value;
  }
  const text = value.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(text)) {
    return true;
  }
  if (['false', '0', 'off', 'no'].includes(text)) {
    return false;
  }
  return value;
}

/**
 * A list of strings: a JSON array, repeated form fields, or one comma-separated text (`a, b`). Items are trimmed;
 * empty ones and duplicates are dropped.
 */
export function formStringList(value: unknown): unknown {
  let list: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        list = JSON.parse(text) as unknown;
      } catch {
        return value;
      }
    } else {
      list = text === '' ? [] : text.split(',');
    }
  }
  if (!Array.isArray(list)) {
    return value;
  }
  if (!list.every((item) => typeof item === 'string')) {
    return list;
  }
  return [...new Set(list.map((item) => item.trim()).filter((item) => item !== ''))];
}

/** A JSON object given as text ('' = empty object). */
export function formJsonObject(value: unknown): unknown {
  if (typeof value !== 'string') {
    return value;
  }
  if (value.trim() === '') {
    return {};
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
