/*
 * Message templates: `{{link}}` and custom attribute names (`{{name}}`), spaces inside the
 * braces allowed. A name the recipient lacks renders empty, and no `{{` or `}}` of the
 * template survives rendering, so a customer never sees a placeholder. Values are inserted
 * as they are, once: a value that itself contains braces is not expanded again.
 */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * `literal` maps the template's own text between placeholders (never the names inside the
 * braces, which must still match the attributes, nor the values).
 */
export function renderTemplate(
  template: string,
  values: Readonly<Record<string, string | undefined>>,
  literal: (text: string) => string = (text) => text,
): string {
  const parts: string[] = [];
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    parts.push(literal(stripBraces(template.slice(last, m.index))), values[m[1]!] ?? '');
    last = m.index + m[0].length;
  }
  parts.push(literal(stripBraces(template.slice(last))));
  return parts.join('');
}

/** The names a template uses, e.g. to warn when a campaign's template names nothing. */
export function templateNames(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

// Unbalanced "{{" or "}}" left in the literal text of a malformed template.
function stripBraces(text: string): string {
  return text.replace(/\{\{|\}\}/g, '');
}
