/**
 * Domain errors and the one table that maps them to gRPC status codes and to the public
 * HTTP status + 13xxx code. Domain code throws AppError; gRPC handlers and the gateway
 * translate through ERROR_TABLE only. docs/errors.md lists the codes.
 */
export interface ErrorSpec {
  /** gRPC status code (numeric, as in @grpc/grpc-js `status`). */
  grpc: number;
  http: number;
  code: number;
  message: string;
}

export const ERROR_TABLE = {
  invalid: { grpc: 3, http: 400, code: 13000, message: 'An error occured' },
  unauthenticated: { grpc: 16, http: 401, code: 13001, message: 'Wrong authentication token' },
  permission_denied: { grpc: 7, http: 403, code: 13013, message: 'Permission denied' },
  not_found: { grpc: 5, http: 404, code: 13002, message: 'Requested resource not found!' },
  conflict: { grpc: 6, http: 409, code: 13003, message: 'Resource already exists' },
  too_large: { grpc: 11, http: 413, code: 13004, message: 'Payload too large' },
  unsupported_media_type: { grpc: 3, http: 415, code: 13007, message: 'Unsupported media type' },
  // Raised by the HTTP edge only (before a route runs); a gRPC peer never sends them.
  uri_too_long: { grpc: 3, http: 414, code: 13021, message: 'URI too long' },
  headers_too_large: { grpc: 3, http: 431, code: 13022, message: 'Request header fields too large' },
  rate_limited: { grpc: 8, http: 429, code: 13005, message: 'Too many requests' },
  gone: { grpc: 9, http: 410, code: 13006, message: 'Resource is gone' },
  unavailable: { grpc: 14, http: 503, code: 13009, message: 'Service temporarily unavailable' },
  internal: { grpc: 13, http: 500, code: 13008, message: 'Internal server error' },
} satisfies Record<string, ErrorSpec>;

/** The kinds of domain error: the table's rows. */
export type ErrorKind = keyof typeof ERROR_TABLE;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly kind: ErrorKind,
    message?: string,
    /** Field-level details, e.g. { flow_id: 'not found' }. */
    readonly fields: Record<string, string> = {},
    /** Public code override for a more specific 13xxx code of the same kind. */
    readonly code: number = ERROR_TABLE[kind].code,
  ) {
    super(message ?? ERROR_TABLE[kind].message);
  }
}

type Fields = Record<string, string>;

/** The one way code builds an AppError of a fixed kind: the kind, then only what varies. */
export const errors = {
  invalid: (fields: Fields, message?: string, code?: number) => new AppError('invalid', message, fields, code),
  unauthenticated: () => new AppError('unauthenticated'),
  permissionDenied: () => new AppError('permission_denied'),
  notFound: (field: string, id: string) => new AppError('not_found', undefined, { [field]: id }),
  conflict: (fields: Fields, message?: string) => new AppError('conflict', message, fields),
  tooLarge: (fields: Fields = {}) => new AppError('too_large', undefined, fields),
  unsupportedMediaType: (fields: Fields = {}) => new AppError('unsupported_media_type', undefined, fields),
  rateLimited: () => new AppError('rate_limited'),
  gone: (fields: Fields) => new AppError('gone', undefined, fields),
  unavailable: (message?: string) => new AppError('unavailable', message),
  internal: (message?: string) => new AppError('internal', message),
};

/** Reverse lookup used by gRPC clients when a peer sent a status without our detail. */
const SHARED_GRPC_CODE: ReadonlySet<ErrorKind> = new Set(['unsupported_media_type', 'uri_too_long', 'headers_too_large']);

export function kindForGrpcStatus(grpc: number): ErrorKind {
  const hit = (Object.entries(ERROR_TABLE) as [ErrorKind, ErrorSpec][]).find(([k, v]) => v.grpc === grpc && !SHARED_GRPC_CODE.has(k));
  if (grpc === 4) return 'unavailable'; // DEADLINE_EXCEEDED
  return hit ? hit[0] : 'internal';
}

/** The public error body (docs/errors.md): {error_message, data, code, errors}. */
export interface ErrorBody {
  error_message: string;
  data: unknown;
  code: number;
  errors: Record<string, string> | null;
}

export function errorBody(err: AppError): ErrorBody {
  const fields = Object.keys(err.fields).length > 0 ? err.fields : null;
  return { error_message: err.message, data: err.message, code: err.code, errors: fields };
}
