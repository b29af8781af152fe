/** Who a delivery's event is about: the identifiers an erasure request carries, by kind. */
export interface DeliverySubject {
  /** The PersonalDataProtector purpose its hash is made under. */
  kind: 'customer_id' | 'phone';
  value: string;
}

/**
 * The person a delivery body is about (event-mapping.ts): survey.answered names the customer,
 * the sms.* events the phone. Stored with each delivery as keyed hashes, so an erasure finds the
 * person's deliveries by index instead of reading every payload, and the hashes say nothing alone.
 */
export function deliverySubjects(body: string): DeliverySubject[] {
  let data: Record<string, unknown> | undefined;
  try {
    data = (JSON.parse(body) as { data?: Record<string, unknown> }).data;
  } catch {
    return [];
  }
  const subjects: DeliverySubject[] = [];
  if (typeof data?.customer_id === 'string' && data.customer_id) subjects.push({ kind: 'customer_id', value: data.customer_id });
  if (typeof data?.phone === 'string' && data.phone) subjects.push({ kind: 'phone', value: data.phone });
  return subjects;
}

export interface DeliveryEraser {
  /** Deletes the account's deliveries stored with any of these subject hashes. */
  deleteBySubjects(accountId: string, hashes: string[]): Promise<number>;
}

/**
 * The webhooks service's part of a data erasure: the delivery log entries about the person
 * (their customers' answers, the SMS statuses of their phones), under every configured key's
 * hash. Idempotent: a second run finds none.
 */
export async function eraseWebhookDeliveries(
  deps: { deliveries: DeliveryEraser; hashes: (value: string, purpose: string) => string[] },
  r: { accountId: string; customerIds: string[]; phones: string[] },
): Promise<number> {
  const hashes = [
    ...r.customerIds.filter(Boolean).flatMap((id) => deps.hashes(id, 'customer_id')),
    ...r.phones.filter(Boolean).flatMap((p) => deps.hashes(p, 'phone')),
  ];
  return hashes.length === 0 ? 0 : deps.deliveries.deleteBySubjects(r.accountId, hashes);
}
