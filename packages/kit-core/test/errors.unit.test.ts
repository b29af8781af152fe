import { describe, expect, it } from 'vitest';
import { AppError, ERROR_TABLE, errorBody, kindForGrpcStatus } from '../src/errors.js';

describe('error table', () => {
  it('gives the public error body with the message repeated in data', () => {
    expect(errorBody(new AppError('unauthenticated'))).toEqual({
      error_message: 'Wrong authentication token',
      data: 'Wrong authentication token',
      code: 13001,
      errors: null,
    });
    expect(errorBody(new AppError('not_found', undefined, { flow_id: 'abc' }))).toEqual({
      error_message: 'Requested resource not found!',
      data: 'Requested resource not found!',
      code: 13002,
      errors: { flow_id: 'abc' },
    });
  });

  it('keeps public codes unique', () => {
    const codes = Object.values(ERROR_TABLE).map((s) => s.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('maps grpc status codes back to kinds', () => {
    expect(kindForGrpcStatus(5)).toBe('not_found');
    expect(kindForGrpcStatus(16)).toBe('unauthenticated');
    expect(kindForGrpcStatus(4)).toBe('unavailable');
    expect(kindForGrpcStatus(2)).toBe('internal');
    expect(kindForGrpcStatus(3)).toBe('invalid');
  });

  it('has 13xxx codes for what only the HTTP edge refuses (414, 431)', () => {
    expect(ERROR_TABLE.uri_too_long).toMatchObject({ http: 414, code: 13021 });
    expect(ERROR_TABLE.headers_too_large).toMatchObject({ http: 431, code: 13022 });
  });
});
