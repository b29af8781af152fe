import { AppError } from '@feedback/kit-core';
import { describe, expect, it } from 'vitest';
import { validateAnswers } from '../src/domain/answer-rules.js';
import type { AnswerValue } from '../src/domain/response.js';
import { sampleFlow } from './fakes/memory-deps.js';

const flow = sampleFlow();
const a = (questionKey: string, v: Partial<AnswerValue> = {}): AnswerValue => ({ questionKey, optionKeys: [], ...v });
/** Answers to every required question (choices and scales). */
const required = (): AnswerValue[] => [
  a('single', { optionKeys: ['a'] }),
  a('multi', { optionKeys: ['x', 'z'] }),
  a('drop', { optionKeys: ['q'] }),
  a('nps', { number: 0 }),
  a('csat', { number: 5 }),
  a('ces', { number: 7 }),
  a('stars', { number: 1 }),
  a('emoji', { number: 3 }),
  a('yn', { number: 1 }),
];

function problems(answers: AnswerValue[]): Record<string, string> {
  try {
    validateAnswers(flow, answers, 'TR');
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).fields;
  }
  return {};
}

const replace = (key: string, v: Partial<AnswerValue>) => [...required().filter((x) => x.questionKey !== key), a(key, v)];

describe('validateAnswers', () => {
  it("accepts an answer to every style and stores them in the flow's order", () => {
    const all = [
      ...required(),
      a('day', { text: '2026-02-28' }),
      a('short', { text: '  fine ' }),
      a('long', { text: 'a'.repeat(5000) }),
      a('mail', { text: 'ada@example.com' }),
      a('tel', { text: '0532 123 45 67' }),
      a('num', { number: -2.5 }),
    ];
    const stored = validateAnswers(flow, all.reverse(), 'TR');
    expect(stored.map((s) => s.questionKey)).toEqual([
      'single',
      'multi',
      'drop',
      'nps',
      'csat',
      'ces',
      'stars',
      'emoji',
      'yn',
      'short',
      'long',
      'mail',
      'tel',
      'num',
      'day',
    ]);
    expect(stored.find((s) => s.questionKey === 'short')?.text).toBe('fine');
    expect(stored.find((s) => s.questionKey === 'tel')?.text).toBe('905321234567');
  });

  it('requires choice and scale questions, not input questions', () => {
    const p = problems([]);
    expect(Object.keys(p).sort()).toEqual([
      'answers.ces',
      'answers.csat',
      'answers.drop',
      'answers.emoji',
      'answers.multi',
      'answers.nps',
      'answers.single',
      'answers.stars',
      'answers.yn',
    ]);
    expect(p['answers.nps']).toBe('is required');
    expect(problems([...required(), a('short', { text: '   ' })])).toEqual({});
  });

  it('checks option keys and counts of choice questions', () => {
    expect(problems(replace('single', { optionKeys: ['a', 'b'] }))).toEqual({ 'answers.single': 'choose exactly one option' });
    expect(problems(replace('drop', { optionKeys: ['zzz'] }))).toEqual({ 'answers.drop': '"zzz" is not an option of this question' });
    expect(problems(replace('multi', { optionKeys: ['x', 'x'] }))).toEqual({ 'answers.multi': 'names an option twice' });
    expect(problems(replace('multi', { text: 'x' }))).toEqual({ 'answers.multi': 'answer with option_keys' });
  });

  it('holds each scale to its integer points, NPS 0-10', () => {
    expect(problems(replace('nps', { number: 10 }))).toEqual({});
    expect(problems(replace('nps', { number: 11 }))).toEqual({ 'answers.nps': 'must be an integer from 0 to 10' });
    expect(problems(replace('nps', { number: 7.5 }))).toEqual({ 'answers.nps': 'must be an integer from 0 to 10' });
    expect(problems(replace('csat', { number: 0 }))).toEqual({ 'answers.csat': 'must be an integer from 1 to 5' });
    expect(problems(replace('ces', { number: 8 }))).toEqual({ 'answers.ces': 'must be an integer from 1 to 7' });
    expect(problems(replace('stars', { number: 6 }))).toEqual({ 'answers.stars': 'must be an integer from 1 to 5' });
    expect(problems(replace('emoji', { optionKeys: ['a'] }))).toEqual({ 'answers.emoji': 'answer with a number from 1 to 5' });
    expect(problems(replace('yn', { number: 2 }))).toEqual({ 'answers.yn': 'must be an integer from 0 to 1' });
  });

  it('checks text, e-mail, phone, number and date answers', () => {
    const with1 = (key: string, v: Partial<AnswerValue>) => problems([...required(), a(key, v)]);
    expect(with1('short', { text: 'x'.repeat(501) })).toEqual({ 'answers.short': 'must be at most 500 characters' });
    expect(with1('long', { number: 3 })).toEqual({ 'answers.long': 'answer with text' });
    expect(with1('mail', { text: 'not-mail' })).toEqual({ 'answers.mail': 'is not an e-mail address' });
    expect(with1('tel', { text: '12' })).toEqual({ 'answers.tel': 'is not a valid phone number' });
    expect(with1('num', { text: '3' })).toEqual({ 'answers.num': 'must be a number' });
    expect(with1('num', { number: Number.NaN })).toEqual({ 'answers.num': 'must be a number' });
    expect(with1('day', { text: '2026-02-30' })).toEqual({ 'answers.day': 'must be a date as YYYY-MM-DD' });
    expect(with1('day', { text: '28.02.2026' })).toEqual({ 'answers.day': 'must be a date as YYYY-MM-DD' });
  });

  it('refuses answers to statements, unknown questions and repeated questions, all at once', () => {
    const p = problems([...required(), a('intro', { text: 'hi' }), a('ghost', { number: 1 }), a('nps', { number: 3 })]);
    expect(p).toEqual({
      'answers.intro': 'takes no answer',
      'answers.ghost': 'is not a question of this flow',
      'answers.nps': 'is answered twice',
    });
  });
});
