import { errors } from '@feedback/kit-core';
import type { PeopleDeps } from './people.ports.js';
import { passwordProblem } from './password-rules.js';
import { changePassword } from './users.use-cases.js';

/**
 * A signed-in person changes their own password: the current one must be right (someone at an
 * unlocked screen cannot take the account over), the new one follows the password rules. Every
 * session of the person ends, this one too, on every replica (sessions live in the shared store).
 * No dummy hash for an unknown user as sign-in has: the caller is signed in, the user is known.
 */
export async function changeOwnPassword(deps: PeopleDeps, userId: string, currentPassword: string, newPassword: string): Promise<void> {
  const user = await deps.users.findById(userId);
  if (!user) throw errors.notFound('user_id', userId);
  // A person without a password (invited, or single sign-on only) has no current one to give.
  const right = user.passwordHash !== null && (await deps.hasher.verify(user.passwordHash, currentPassword));
  if (!right) throw errors.invalid({ current_password: 'is not right' });
  const problem = passwordProblem(newPassword, user.email);
  if (problem) throw errors.invalid({ new_password: problem });
  await changePassword(deps, userId, newPassword);
}
