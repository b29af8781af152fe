import type { Page, PageKey, PageQuery } from '@feedback/kit-core';
import { backlogByDate, isDuplicateKeyError, keysetPage } from '@feedback/kit-stores';
import type { Collection, Db, Filter } from 'mongodb';
import type { ResponseFilter, ResponseRepository, ScoredResponse } from '../../domain/ports.js';
import type { AnswerValue, SurveyResponse } from '../../domain/response.js';
import { responseSortKey } from '../../domain/responses.use-cases.js';
import { toContext, toContextDoc, type ContextDoc } from './link.repository.js';

interface AnswerDoc {
  question_key: string;
  option_keys: string[];
  text?: string;
  number?: number;
}

/**
 * The send context's fields sit at the top (ContextDoc), so `sharing_id` has an index of its own;
 * `custom_attributes` is on every response stored since links kept a context.
 */
interface ResponseDoc extends Partial<ContextDoc> {
  _id: string;
  account_id: string;
  flow_id: string;
  channel_id: string;
  node_id: string;
  customer_id: string;
  link_id: string;
  activation: number;
  answers: AnswerDoc[];
  built_in_responses: Record<string, string>;
  answered_at: Date;
  /** answered_at + id: one field to page on (newest first), so a page is one index range. */
  sort_key: string;
  /** Set until survey.answered is confirmed by Kafka: the outbox. */
  event_pending_since?: Date;
}

const toAnswerDoc = (a: AnswerValue): AnswerDoc => ({
  question_key: a.questionKey,
  option_keys: a.optionKeys,
  ...(a.text !== undefined ? { text: a.text } : {}),
  ...(a.number !== undefined ? { number: a.number } : {}),
});

const toAnswer = (a: AnswerDoc): AnswerValue => ({
  questionKey: a.question_key,
  optionKeys: a.option_keys ?? [],
  ...(a.text !== undefined ? { text: a.text } : {}),
  ...(a.number !== undefined ? { number: a.number } : {}),
});

const toResponse = (d: ResponseDoc): SurveyResponse => ({
  id: d._id,
  accountId: d.account_id,
  flowId: d.flow_id,
  channelId: d.channel_id,
  nodeId: d.node_id,
  customerId: d.customer_id,
  linkId: d.link_id,
  activation: d.activation,
  answers: d.answers.map(toAnswer),
  builtInResponses: d.built_in_responses ?? {},
  answeredAt: d.answered_at,
  ...(d.custom_attributes !== undefined ? { context: toContext({ ...d, custom_attributes: d.custom_attributes }) } : {}),
});

const sortKey = (key: PageKey) => responseSortKey({ answeredAt: key.at, id: key.id });

/**
 * The query names exactly the fields of one index (indexes.ts: per account, flow, channel or
 * customer) and a range of its sort_key: the local server (SecantusDB) scans the whole collection
 * for a query with one equality more than an index has. So with a customer (the most selective)
 * and a flow or channel, the customer's index is queried and the other field checked here.
 */
function indexedQuery(f: ResponseFilter): { query: Filter<ResponseDoc>; rest?: (d: ResponseDoc) => boolean } {
  const range = { ...(f.from ? { $gte: f.from } : {}), ...(f.before ? { $lt: f.before } : {}) };
  const query: Filter<ResponseDoc> = { account_id: f.accountId, ...(f.from || f.before ? { sort_key: range } : {}) };
  const { flowId, channelId, sharingId } = f;
  if (f.customerId) {
    const rest =
      flowId || channelId || sharingId
        ? (d: ResponseDoc) =>
            (!flowId || d.flow_id === flowId) && (!channelId || d.channel_id === channelId) && (!sharingId || d.sharing_id === sharingId)
        : undefined;
    return { query: { ...query, customer_id: f.customerId }, ...(rest ? { rest } : {}) };
  }
  // A sharing is of one campaign (one channel, one flow) and has at most a sharing's recipients.
  if (sharingId) {
    const rest =
      flowId || channelId ? (d: ResponseDoc) => (!flowId || d.flow_id === flowId) && (!channelId || d.channel_id === channelId) : undefined;
    return { query: { ...query, sharing_id: sharingId }, ...(rest ? { rest } : {}) };
  }
  if (f.channelId) return { query: { ...query, channel_id: f.channelId }, ...(f.flowId ? { rest: (d) => d.flow_id === f.flowId } : {}) };
  return { query: f.flowId ? { ...query, flow_id: f.flowId } : query };
}

export class MongoResponseRepository implements ResponseRepository {
  private readonly responses: Collection<ResponseDoc>;

  constructor(db: Db) {
    this.responses = db.collection<ResponseDoc>('responses');
  }

  async insert(r: SurveyResponse): Promise<'created' | 'duplicate'> {
    try {
      await this.responses.insertOne({
        _id: r.id,
        account_id: r.accountId,
        flow_id: r.flowId,
        channel_id: r.channelId,
        node_id: r.nodeId,
        customer_id: r.customerId,
        link_id: r.linkId,
        activation: r.activation,
        answers: r.answers.map(toAnswerDoc),
        built_in_responses: r.builtInResponses,
        answered_at: r.answeredAt,
        sort_key: responseSortKey(r),
        ...(r.context ? toContextDoc(r.context) : {}),
        event_pending_since: r.answeredAt,
      });
      return 'created';
    } catch (err) {
      if (isDuplicateKeyError(err)) return 'duplicate';
      throw err;
    }
  }

  /** One range of sort_key per page; with `rest`, read down the index until the page is full (a customer has few responses). */
  async list(f: ResponseFilter, page: PageQuery): Promise<Page<SurveyResponse>> {
    const { query, rest } = indexedQuery(f);
    const { items, nextPageToken } = await keysetPage(this.responses, page, {
      filter: query,
      order: { date: 'answered_at', field: 'sort_key', sortKey },
      ...(rest ? { accept: rest } : {}),
    });
    return { items: items.map(toResponse), nextPageToken };
  }

  async findById(accountId: string, id: string): Promise<SurveyResponse | null> {
    const doc = await this.responses.findOne({ _id: id, account_id: accountId });
    return doc ? toResponse(doc) : null;
  }

  /** A cursor read in batches: the driver holds one batch at a time, whatever the range's size. */
  async *answersOf(f: ResponseFilter): AsyncIterable<ScoredResponse> {
    const { query, rest } = indexedQuery(f);
    const projection = { answers: 1, answered_at: 1, custom_attributes: 1, flow_id: 1, channel_id: 1, sharing_id: 1 };
    const cursor = this.responses.find(query, { projection, batchSize: 1_000 });
    try {
      for await (const doc of cursor)
        if (!rest || rest(doc))
          yield {
            answers: (doc.answers ?? []).map(toAnswer),
            answeredAt: doc.answered_at,
            ...(doc.custom_attributes ? { customAttributes: doc.custom_attributes } : {}),
          };
    } finally {
      await cursor.close();
    }
  }

  async unpublished(before: Date, limit: number): Promise<SurveyResponse[]> {
    const docs = await this.responses
      .find({ event_pending_since: { $lte: before } })
      .sort({ event_pending_since: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toResponse);
  }

  /** The survey.answered outbox for metrics: the responses whose event is still pending. */
  outboxBacklog(): Promise<{ pending: number; oldest: Date | null }> {
    return backlogByDate(this.responses, 'event_pending_since');
  }

  async markPublished(id: string): Promise<void> {
    await this.responses.updateOne({ _id: id }, { $unset: { event_pending_since: '' } });
  }
}
