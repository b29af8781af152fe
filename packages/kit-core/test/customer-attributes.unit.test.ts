import { describe, expect, it } from 'vitest';
import { attributeNameProblem, attributeProblem, attributeValueProblem } from '../src/customer-attributes.js';

describe('the customer attribute rule', () => {
  it('refuses names the survey service cannot store as field names', () => {
    for (const name of ['', '$x', 'a.b', 'tab\there', 'x'.repeat(65)]) expect(attributeNameProblem(name)).toMatch(/^name must be/);
    for (const name of ['name', 'customerDetailInfo1', 'TCKN', 'x$', 'Müşteri no', 'x'.repeat(64)])
      expect(attributeNameProblem(name)).toBeUndefined();
  });

  it('refuses the values the survey service copies onto the customer when they break that field', () => {
    expect(attributeValueProblem('email', 'not-mail')).toBe('is not an e-mail address');
    expect(attributeValueProblem('email', ' a@example.com ')).toBeUndefined();
    expect(attributeValueProblem('name', 'n'.repeat(201))).toMatch(/at most 200/);
    expect(attributeValueProblem('external_id', 'e'.repeat(201))).toMatch(/at most 200/);
    expect(attributeValueProblem('note', 'v'.repeat(1_000))).toBeUndefined();
    expect(attributeValueProblem('note', 'v'.repeat(1_001))).toMatch(/at most 1000/);
    expect(attributeProblem('$x', 'v'.repeat(1_001))).toMatch(/^name must be/);
  });
});
