import { errors } from '@feedback/kit-core';

/** A folder of an account's files; its name is unique within the account. */
export interface Directory {
  id: string;
  accountId: string;
  name: string;
  createdAt: Date;
  /** File names a workflow is bound to (SetWorkflowBinding): their uploads show `processing`. */
  boundNames?: string[];
}

const DIRECTORY_NAME_MAX = 200;

// C0/C1 controls and bidirectional overrides: invisible, and able to disguise a name.
const HIDDEN = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The stored form of a directory name (trimmed, NFC), or an invalid error naming `name`. */
export function normalizeDirectoryName(raw: string): string {
  const name = (raw ?? '').normalize('NFC').trim();
  if (name === '') throw errors.invalid({ name: 'is required' });
  if (name.length > DIRECTORY_NAME_MAX) throw errors.invalid({ name: `must be at most ${DIRECTORY_NAME_MAX} characters` });
  if (HIDDEN.test(name)) throw errors.invalid({ name: 'must not contain control characters' });
  return name;
}
