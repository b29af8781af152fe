import { isoWithOffset, type Page } from '@feedback/kit-core';
import type { User } from '../../accounts/domain/user.js';

/** A user as the admin API shows one: never the password hash. */
export const userView = (u: User) => ({ id: u.id, email: u.email, name: u.name, role: u.role, created_at: isoWithOffset(u.createdAt) });

export const createdUserView = (u: User, inviteUrl: string | null) => ({ ...userView(u), invite_url: inviteUrl });

export const usersPageView = (page: Page<User>) => ({ data: page.items.map(userView), next_page_token: page.nextPageToken || null });
