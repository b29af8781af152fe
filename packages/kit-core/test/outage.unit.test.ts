import { describe, expect, it } from 'vitest';
import { AppError, errors, isOutage, toPublicError } from '../src/index.js';

const sys = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9000`), { code });
const named = (name: string) => Object.assign(new Error('x'), { name });

describe('isOutage / toPublicError', () => {
  it('sees an unreachable dependency in the error, its cause or an AggregateError', () => {
    expect(isOutage(sys('ECONNREFUSED'))).toBe(true);
    expect(isOutage(named('MongoServerSelectionError'))).toBe(true);
    expect(isOutage(new Error('request failed', { cause: sys('ECONNRESET') }))).toBe(true);
    expect(isOutage(new AggregateError([sys('ECONNREFUSED'), sys('ECONNREFUSED')]))).toBe(true);
  });

  it('sees the network error a MongoDB bulk write (insertMany) was cut short by, and not its duplicate keys', () => {
    // The driver's MongoBulkWriteError keeps what ended the batch in errorResponse.
    const bulk = (errorResponse: unknown) => Object.assign(named('MongoBulkWriteError'), { errorResponse, writeErrors: [] });
    expect(isOutage(bulk(Object.assign(named('MongoNetworkError'), { message: 'read ECONNRESET' })))).toBe(true);
    expect(toPublicError(bulk(named('MongoNetworkError')))).toMatchObject({ kind: 'unavailable', code: 13009 });
    expect(isOutage(bulk({ code: 11000, errmsg: 'E11000 duplicate key error' }))).toBe(false);
  });

  it('does not take a bug or a refusal on the merits for an outage', () => {
    for (const err of [new TypeError('x is undefined'), sys('ENOENT'), named('MongoServerError'), 'ECONNREFUSED', null, undefined])
      expect(isOutage(err)).toBe(false);
  });

  it('answers unavailable for an outage, internal for anything else, an AppError as it is', () => {
    expect(toPublicError(sys('ECONNREFUSED'))).toMatchObject({ kind: 'unavailable', code: 13009 });
    expect(toPublicError(new TypeError('boom'))).toMatchObject({ kind: 'internal', code: 13008 });
    const own = errors.notFound('flow_id', 'x');
    expect(toPublicError(own)).toBe(own);
    expect(toPublicError(own)).toBeInstanceOf(AppError);
  });
});
