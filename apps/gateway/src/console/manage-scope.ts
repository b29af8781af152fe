import { AppError, errors } from '@feedback/kit-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../accounts/domain/people.js';
import type { AccountRepository } from '../accounts/domain/ports.js';
import type { FormValues } from '../api/surveys/survey-form.js';
import { html, type Html } from '../api/surveys/html.js';
import { accountScope } from './account-scope.js';
import { viewerOf } from './console-page.js';
import type { Scope } from './users.views.js';

/** An account's users and tokens: its owners, and operators on a chosen account; members and viewers get 403. */
export function requireManager(viewer: Viewer): void {
  if (viewer.role !== 'owner' && viewer.role !== 'operator') throw errors.permissionDenied();
}

/** The viewer's account (an operator's chosen one), once their role may manage it; null: an operator has not chosen. */
export async function managedScope(
  accounts: Pick<AccountRepository, 'findById'>,
  req: FastifyRequest,
  requested: string | undefined,
): Promise<Scope | null> {
  const viewer = viewerOf(req);
  requireManager(viewer);
  const scope = await accountScope(accounts, viewer, requested);
  return scope && { viewer, ...scope };
}

/** The deployment's accounts, SMS providers and limits: operators only. */
export function requireOperator(viewer: Viewer): void {
  if (viewer.role !== 'operator') throw errors.permissionDenied();
}

/** An operator on an account's page without an account: the accounts, to choose one from. */
export const chooseAccount = (reply: FastifyReply) => reply.redirect('/console/accounts', 303);

/** A form's first value of a field, trimmed; '' when absent. */
export const formField = (body: unknown, name: string): string => ((body as FormValues | undefined)?.[name]?.[0] ?? '').trim();

/** Bad input of a form (400 'invalid', or another AppError naming fields): its fields and messages, for the form again. */
export function fieldErrorsOf(err: unknown, kinds: readonly string[] = ['invalid']): Record<string, string> | null {
  if (!(err instanceof AppError) || !kinds.includes(err.kind)) return null;
  // The use cases name body fields as the API does (`body.email`): the form's field is the last part.
  return Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k.replace(/^body\./, ''), String(v)]));
}

export type FieldErrors = Record<string, string>;

/** A labelled input with its error next to it (described-by, so a screen reader reads both). */
export function field(id: string, label: string, input: (attrs: Html) => Html, error: string | undefined): Html {
  const attrs = error ? html` aria-invalid="true" aria-describedby="${id}-error"` : html``;
  return html`<label for="${id}">${label}</label>${input(attrs)}${error ? html`<p class="alert" id="${id}-error">${error}</p>` : ''}`;
}
