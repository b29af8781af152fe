import type { Answer } from '@feedback/proto/feedback/survey/v1/survey';

/**
 * The page's form names each field by how its value travels: `o.<key>` option keys, `n.<key>` a
 * number, `t.<key>` text. So a POST becomes answers without reading the flow first; the survey
 * service checks them against the flow.
 */
export type FieldKind = 'o' | 'n' | 't';
export const fieldName = (kind: FieldKind, questionKey: string) => `${kind}.${questionKey}`;

/** Submitted form values by field name (a checkbox group repeats its name). */
export type FormValues = Record<string, string[]>;

const MAX_FORM_FIELDS = 2000;

export function parseForm(body: string): FormValues {
  // No prototype: a field may be named `__proto__` or `constructor` (found by schemathesis: a 500).
  const values: FormValues = Object.create(null) as FormValues;
  let count = 0;
  for (const [name, value] of new URLSearchParams(body)) {
    if (++count > MAX_FORM_FIELDS) break;
    (values[name] ??= []).push(value);
  }
  return values;
}

/** Empty fields are "not answered"; a number that does not parse goes as text, for the service to refuse by name. */
export function answersFromForm(form: FormValues): Answer[] {
  const answers: Answer[] = [];
  for (const [name, raw] of Object.entries(form)) {
    const m = /^([ont])\.(.+)$/.exec(name);
    if (!m) continue;
    const [, kind, questionKey = ''] = m;
    const values = raw.map((v) => v.trim()).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (kind === 'o') answers.push({ questionKey, optionKeys: values });
    else if (kind === 'n') {
      const n = Number(values[0]);
      answers.push(Number.isFinite(n) ? { questionKey, optionKeys: [], number: n } : { questionKey, optionKeys: [], text: values[0]! });
    } else answers.push({ questionKey, optionKeys: [], text: values[0]! });
  }
  return answers;
}
