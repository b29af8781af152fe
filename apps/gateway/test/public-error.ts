/**
 * The public error body a test expects (docs/errors.md): the message twice, as `error_message`
 * and as `data`, the 13xxx code, and the fields that were wrong (null when none).
 */
export const publicError = (message: string, code: number, errors: Record<string, unknown> | null) => ({
  error_message: message,
  data: message,
  code,
  errors,
});
