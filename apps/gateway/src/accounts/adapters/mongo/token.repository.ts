import type { Collection, Db } from 'mongodb';
import type { ApiToken, TokenKind } from '../../domain/account.js';
import type { TokenRepository } from '../../domain/ports.js';

interface TokenDoc {
  _id: string;
  account_id: string;
  kind: TokenKind;
  name: string;
  hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toToken = (d: TokenDoc): ApiToken => ({
  id: d._id,
  accountId: d.account_id,
  kind: d.kind,
  name: d.name,
  hash: d.hash,
  createdAt: d.created_at,
  revokedAt: d.revoked_at,
});

export class MongoTokenRepository implements TokenRepository {
  private readonly col: Collection<TokenDoc>;
  constructor(db: Db) {
    this.col = db.collection<TokenDoc>('tokens');
  }

  async insert(t: ApiToken): Promise<void> {
    await this.col.insertOne({
      _id: t.id,
      account_id: t.accountId,
      kind: t.kind,
      name: t.name,
      hash: t.hash,
      created_at: t.createdAt,
      revoked_at: t.revokedAt,
    });
  }

  async findByHash(hash: string): Promise<ApiToken | null> {
    const d = await this.col.findOne({ hash });
    return d ? toToken(d) : null;
  }

  async listByAccount(accountId: string): Promise<ApiToken[]> {
    const docs = await this.col.find({ account_id: accountId }).sort({ created_at: -1 }).limit(1000).toArray();
    return docs.map(toToken);
  }

  async revoke(accountId: string, tokenId: string, at: Date): Promise<ApiToken | null> {
    // Revoking twice keeps the first revocation time.
    const d =
      (await this.col.findOneAndUpdate(
        { _id: tokenId, account_id: accountId, revoked_at: null },
        { $set: { revoked_at: at } },
        { returnDocument: 'after' },
      )) ?? (await this.col.findOne({ _id: tokenId, account_id: accountId }));
    return d ? toToken(d) : null;
  }
}
