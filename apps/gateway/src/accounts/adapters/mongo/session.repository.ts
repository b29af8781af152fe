import type { Collection, Db } from 'mongodb';
import type { SessionRepository } from '../../domain/people.ports.js';
import type { Session } from '../../domain/user.js';

interface SessionDoc {
  /** The SHA-256 of the cookie value; the value itself is never stored. */
  _id: string;
  user_id: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  /** The TTL index removes the document after this; find() checks it itself meanwhile. */
  expires_at: Date;
}

/** Console sessions (collection `sessions`), read on every request by every replica. */
export class MongoSessionRepository implements SessionRepository {
  private readonly col: Collection<SessionDoc>;
  constructor(db: Db) {
    this.col = db.collection<SessionDoc>('sessions');
  }

  async insert(s: Session): Promise<void> {
    await this.col.insertOne({
      _id: s.idHash,
      user_id: s.userId,
      csrf_token: s.csrfToken,
      created_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      expires_at: s.expiresAt,
    });
  }

  async find(idHash: string): Promise<Session | null> {
    const d = await this.col.findOne({ _id: idHash });
    return d
      ? {
          idHash: d._id,
          userId: d.user_id,
          csrfToken: d.csrf_token,
          createdAt: d.created_at,
          lastSeenAt: d.last_seen_at,
          expiresAt: d.expires_at,
        }
      : null;
  }

  async touch(idHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.col.updateOne({ _id: idHash }, { $set: { last_seen_at: lastSeenAt, expires_at: expiresAt } });
  }

  async delete(idHash: string): Promise<void> {
    await this.col.deleteOne({ _id: idHash });
  }

  async deleteByUser(userId: string): Promise<void> {
    await this.col.deleteMany({ user_id: userId });
  }
}
