import type { Collection, Db } from 'mongodb';
import type { InviteRepository } from '../../domain/people.ports.js';
import type { Invite } from '../../domain/user.js';

interface InviteDoc {
  /** The SHA-256 of the invite token. */
  _id: string;
  user_id: string;
  expires_at: Date;
}

const toInvite = (d: InviteDoc): Invite => ({ tokenHash: d._id, userId: d.user_id, expiresAt: d.expires_at });

/** Invitations to set a password (collection `invites`, TTL on expires_at). */
export class MongoInviteRepository implements InviteRepository {
  private readonly col: Collection<InviteDoc>;
  constructor(db: Db) {
    this.col = db.collection<InviteDoc>('invites');
  }

  async insert(i: Invite): Promise<void> {
    await this.col.insertOne({ _id: i.tokenHash, user_id: i.userId, expires_at: i.expiresAt });
  }

  async find(tokenHash: string): Promise<Invite | null> {
    const d = await this.col.findOne({ _id: tokenHash });
    return d ? toInvite(d) : null;
  }

  async take(tokenHash: string): Promise<Invite | null> {
    // One atomic delete: of two requests with the same token, one gets the document.
    const d = await this.col.findOneAndDelete({ _id: tokenHash });
    return d ? toInvite(d) : null;
  }

  async deleteByUser(userId: string): Promise<void> {
    await this.col.deleteMany({ user_id: userId });
  }
}
