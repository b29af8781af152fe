import type { Db } from 'mongodb';
import type { SurveyPersonalData } from '../../domain/data-erasure.js';
import type { SurveyLink } from '../../domain/link.js';
import { toLink, type LinkDoc } from './link.repository.js';

/**
 * The survey service's deletes for a data erasure, by ids. Each filter names the account, and
 * starts with fields of an index (indexes.ts): customers and links by `_id`, links by
 * (account_id, customer_id) of account_customer_node, responses by (account_id, customer_id) of
 * account_customer_newest and by link_id of link_activation.
 */
export class MongoSurveyPersonalData implements SurveyPersonalData {
  constructor(private readonly db: Db) {}

  async linksOfCustomers(accountId: string, customerIds: string[]): Promise<SurveyLink[]> {
    if (customerIds.length === 0) return [];
    const docs = await this.db
      .collection<LinkDoc>('links')
      .find({ account_id: accountId, customer_id: { $in: customerIds } })
      .toArray();
    return docs.map(toLink);
  }

  async deleteResponsesOf(accountId: string, customerIds: string[], linkIds: string[]): Promise<number> {
    const responses = this.db.collection('responses');
    let n = 0;
    if (customerIds.length > 0)
      n += (await responses.deleteMany({ account_id: accountId, customer_id: { $in: customerIds } })).deletedCount;
    if (linkIds.length > 0) n += (await responses.deleteMany({ link_id: { $in: linkIds }, account_id: accountId })).deletedCount;
    return n;
  }

  async deleteLinks(accountId: string, linkIds: string[]): Promise<number> {
    if (linkIds.length === 0) return 0;
    return (await this.db.collection('links').deleteMany({ _id: { $in: linkIds } as never, account_id: accountId })).deletedCount;
  }

  async deleteCustomers(accountId: string, customerIds: string[]): Promise<number> {
    if (customerIds.length === 0) return 0;
    return (await this.db.collection('customers').deleteMany({ _id: { $in: customerIds } as never, account_id: accountId })).deletedCount;
  }
}
