import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { validateFlowDefinition } from '../src/domain/validate-flow.js';

const q = (over: Record<string, unknown> = {}) => ({ key: 'q1', body: { en: 'How was it?' }, style: 'nps', options: [], ...over });

function problems(def: unknown): Record<string, string> {
  try {
    validateFlowDefinition(def as never);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).fields;
  }
  return {};
}

describe('validateFlowDefinition', () => {
  it('accepts a valid flow of several styles', () => {
    expect(
      problems({
        name: 'Visit',
        questions: [
          q(),
          q({
            key: 'why',
            style: 'multiple_choice',
            options: [
              { key: 'a', body: { en: 'A' } },
              { key: 'b', body: { 'pt-BR': 'B' } },
            ],
          }),
          q({ key: 'txt', style: 'long_text' }),
        ],
      }),
    ).toEqual({});
  });

  it('names an unknown style with the allowed list', () => {
    const p = problems({ name: 'x', questions: [q({ style: 'slider' })] });
    expect(p['questions[0].style']).toMatch(/must be one of .*single_choice/);
  });

  it('requires two options for choice styles and none for text styles', () => {
    expect(problems({ name: 'x', questions: [q({ style: 'single_choice', options: [{ key: 'a', body: { en: 'A' } }] })] })).toHaveProperty(
      'questions[0].options',
    );
    expect(
      problems({
        name: 'x',
        questions: [
          q({
            style: 'short_text',
            options: [
              { key: 'a', body: { en: 'A' } },
              { key: 'b', body: { en: 'B' } },
            ],
          }),
        ],
      }),
    ).toHaveProperty('questions[0].options');
  });

  it('rejects duplicate keys, bad language codes and empty texts', () => {
    const p = problems({
      name: ' ',
      questions: [q(), q({ body: { EN_us: 'x' } }), q({ key: 'z', body: { en: '' } })],
    });
    expect(p.name).toBe('is required');
    expect(p['questions[1].key']).toMatch(/duplicate/);
    expect(p['questions[1].body.EN_us']).toMatch(/language code/);
    expect(p['questions[2].body.en']).toMatch(/non-empty/);
  });

  it('requires at least one question', () => {
    expect(problems({ name: 'x', questions: [] })).toEqual({ questions: 'must have at least one question' });
  });
});
