import { AppError, errors, pageQueryOf, type Page, type PageRequest, type PageRule } from '@feedback/kit-core';
import { requireAccount } from './accounts.use-cases.js';
import { ACCOUNT_ROLES, type AccountRole } from './people.js';
import type { PeopleDeps } from './people.ports.js';
import { emailKeyOf, newSecret, passwordProblem, secretKey } from './password-rules.js';
import type { User } from './user.js';

/** 409: the e-mail is another user's or operator's (docs/errors.md). */
export const EMAIL_TAKEN_CODE = 13060;

export const USERS_PAGE: PageRule = { list: 'users', default: 50, max: 200 };

export interface NewUser {
  email: string;
  name: string;
  password?: string | undefined;
}

// Deliberately loose: one @, no spaces; whether the address works shows when the person signs in.
const EMAIL = /^[^\s@]+@[^\s@]+$/;

function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) throw errors.invalid({ email: 'must be an e-mail address' });
  return trimmed;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 200) throw errors.invalid({ name: 'must be 1-200 characters' });
  return trimmed;
}

function checkRole(role: string): AccountRole {
  if (!(ACCOUNT_ROLES as readonly string[]).includes(role)) throw errors.invalid({ role: `must be one of ${ACCOUNT_ROLES.join(', ')}` });
  return role as AccountRole;
}

async function hashChecked(deps: Pick<PeopleDeps, 'hasher'>, password: string, email: string): Promise<string> {
  const problem = passwordProblem(password, email);
  if (problem) throw errors.invalid({ password: problem });
  return deps.hasher.hash(password);
}

/** A user, plus the invite link when they were created without a password (shown once). */
export interface CreatedUser {
  user: User;
  inviteUrl: string | null;
}

async function addPerson(deps: PeopleDeps, accountId: string | null, role: User['role'], input: NewUser): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const name = checkName(input.name);
  const passwordHash = input.password === undefined ? null : await hashChecked(deps, input.password, email);
  const user: User = {
    id: deps.newId(),
    accountId,
    email,
    emailKey: emailKeyOf(email),
    name,
    role,
    passwordHash,
    createdAt: deps.clock.now(),
  };
  if ((await deps.users.insert(user)) === 'duplicate')
    throw new AppError('conflict', 'E-mail already in use', { email: 'is already in use' }, EMAIL_TAKEN_CODE);
  if (passwordHash) return { user, inviteUrl: null };
  const token = newSecret();
  await deps.invites.insert({
    tokenHash: secretKey(token),
    userId: user.id,
    expiresAt: new Date(user.createdAt.getTime() + deps.policy.inviteTtlMs),
  });
  return { user, inviteUrl: deps.policy.inviteUrl(token) };
}

export async function createUser(deps: PeopleDeps, accountId: string, input: NewUser & { role: string }): Promise<CreatedUser> {
  await requireAccount(deps, accountId);
  return addPerson(deps, accountId, checkRole(input.role), input);
}

/** A user of the account; another account's (or an operator) is 404 as an unknown one. */
export async function getUser(deps: PeopleDeps, accountId: string, userId: string): Promise<User> {
  await requireAccount(deps, accountId);
  const user = await deps.users.findById(userId);
  if (!user || user.accountId !== accountId) throw errors.notFound('user_id', userId);
  return user;
}

export async function listUsers(deps: PeopleDeps, accountId: string, req: Partial<PageRequest>): Promise<Page<User>> {
  const query = pageQueryOf(req, USERS_PAGE);
  await requireAccount(deps, accountId);
  return deps.users.list(accountId, query);
}

export async function updateUser(
  deps: PeopleDeps,
  accountId: string,
  userId: string,
  patch: { name?: string; role?: string },
): Promise<User> {
  const changes = {
    ...(patch.name !== undefined ? { name: checkName(patch.name) } : {}),
    ...(patch.role !== undefined ? { role: checkRole(patch.role) } : {}),
  };
  await getUser(deps, accountId, userId);
  // A role change holds from the user's next request: viewer() reads the user every time.
  const updated = await deps.users.update(userId, changes);
  if (!updated) throw errors.notFound('user_id', userId);
  return updated;
}

/** Removes the user; their sessions and invite end at once. */
export async function deleteUser(deps: PeopleDeps, accountId: string, userId: string): Promise<void> {
  await getUser(deps, accountId, userId);
  if (!(await deps.users.delete(userId))) throw errors.notFound('user_id', userId);
  await deps.sessions.deleteByUser(userId);
  await deps.invites.deleteByUser(userId);
}

/** 409: the change would leave the account without an owner (docs/errors.md). */
export const LAST_OWNER_CODE = 13061;

/** Whether the account has an owner besides `userId` (read a page at a time: an account has few people). */
async function anotherOwner(deps: PeopleDeps, accountId: string, userId: string): Promise<boolean> {
  let after: string | undefined;
  do {
    const page = await deps.users.list(accountId, pageQueryOf({ pageSize: USERS_PAGE.max, pageToken: after ?? '' }, USERS_PAGE));
    if (page.items.some((u) => u.role === 'owner' && u.id !== userId)) return true;
    after = page.nextPageToken || undefined;
  } while (after);
  return false;
}

/**
 * As updateUser and deleteUser, but an account always keeps an owner: the last one cannot be
 * removed or given another role (the console's rule; someone must be left to manage the account).
 */
export async function changeUserKeepingAnOwner(
  deps: PeopleDeps,
  accountId: string,
  userId: string,
  change: { remove: true } | { name?: string; role?: string },
): Promise<User | null> {
  const user = await getUser(deps, accountId, userId);
  const losesOwner = user.role === 'owner' && ('remove' in change || (change.role !== undefined && change.role !== 'owner'));
  if (losesOwner && !(await anotherOwner(deps, accountId, userId)))
    throw new AppError('conflict', 'The account would have no owner', { user_id: "is the account's last owner" }, LAST_OWNER_CODE);
  if ('remove' in change) return deleteUser(deps, accountId, userId).then(() => null);
  return updateUser(deps, accountId, userId, change);
}

/** A new password (checked as at creation); every session of the user ends. */
export async function changePassword(deps: PeopleDeps, userId: string, password: string): Promise<User> {
  const user = await deps.users.findById(userId);
  if (!user) throw errors.notFound('user_id', userId);
  const passwordHash = await hashChecked(deps, password, user.email);
  const updated = await deps.users.update(userId, { passwordHash });
  if (!updated) throw errors.notFound('user_id', userId);
  await deps.sessions.deleteByUser(userId);
  await deps.invites.deleteByUser(userId);
  return updated;
}

export const createOperator = (deps: PeopleDeps, input: NewUser): Promise<CreatedUser> => addPerson(deps, null, 'operator', input);

export const listOperators = (deps: PeopleDeps, req: Partial<PageRequest>): Promise<Page<User>> =>
  deps.users.list(null, pageQueryOf(req, { ...USERS_PAGE, list: 'operators' }));

/**
 * The deployment's first operator, from its bootstrap setting: created only while there is no
 * operator at all, so a restart (or a second replica starting at once) changes nothing.
 */
export async function bootstrapOperator(deps: PeopleDeps, input: NewUser & { password: string }): Promise<'created' | 'exists'> {
  if (await deps.users.anyOperator()) return 'exists';
  try {
    await createOperator(deps, input);
    return 'created';
  } catch (err) {
    if (err instanceof AppError && err.code === EMAIL_TAKEN_CODE) return 'exists';
    throw err;
  }
}
