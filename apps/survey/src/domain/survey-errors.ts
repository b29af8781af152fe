import { AppError } from '@feedback/kit-core';

/**
 * Codes of the survey service beyond the shared table (docs/errors.md lists them). Both are
 * FAILED_PRECONDITION ('gone') over gRPC; the page tells them apart by the code.
 */
export const SURVEY_CODES = { alreadyAnswered: 13040, linkExpired: 13041 } as const;

export const alreadyAnswered = () => new AppError('gone', 'Survey already answered', {}, SURVEY_CODES.alreadyAnswered);
export const linkExpired = () => new AppError('gone', 'Survey link expired', {}, SURVEY_CODES.linkExpired);
