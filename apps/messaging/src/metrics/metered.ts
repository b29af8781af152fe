import type { DispatchPublisher } from '../shared/ports.js';
import type { OutgoingSms, ProviderResult, SmsProvider } from '../providers/ports.js';
import type { MessageRepository } from '../shared/ports.js';
import type { SmsMetrics } from './sms.metrics.js';

const unknown = (err: unknown): ProviderResult => ({ outcome: 'unknown', reason: (err as Error).message });

/**
 * The provider as it was, each hand-over counted. Same name, idempotence and delivery rule, so
 * the dispatcher treats it exactly like the provider it wraps. A throw is counted as the use
 * case reads it (an unknown outcome) and passed on.
 */
export function meteredProvider(provider: SmsProvider, metrics: SmsMetrics): SmsProvider {
  const sendMany = provider.sendMany?.bind(provider);
  return {
    name: provider.name,
    idempotent: provider.idempotent,
    deliveryRule: provider.deliveryRule,
    turkishShiftTable: provider.turkishShiftTable,
    async send(sms: OutgoingSms) {
      try {
        const result = await provider.send(sms);
        metrics.handedOver(provider.name, result);
        return result;
      } catch (err) {
        metrics.handedOver(provider.name, unknown(err));
        throw err;
      }
    },
    ...(sendMany && {
      async sendMany(sms: OutgoingSms[]) {
        try {
          const results = await sendMany(sms);
          for (const r of results) metrics.handedOver(provider.name, r);
          return results;
        } catch (err) {
          for (let i = 0; i < sms.length; i++) metrics.handedOver(provider.name, unknown(err));
          throw err;
        }
      },
    }),
  };
}

/** Counts the recipients a sharing queued once their events are acknowledged (API and CSV sharings alike). */
export function meteredDispatch(publisher: DispatchPublisher, metrics: SmsMetrics): DispatchPublisher {
  return {
    batch() {
      const inner = publisher.batch();
      let count = 0;
      return {
        add(events) {
          inner.add(events);
          count += events.length;
        },
        async send() {
          await inner.send();
          if (count > 0) metrics.accepted(count);
        },
      };
    },
  };
}

/** Counts the delivery reports that set a message's final status (a repeated or late one changes nothing and is not counted). */
export function meteredDeliveryReports<M extends Pick<MessageRepository, 'applyDeliveryReport'>>(messages: M, metrics: SmsMetrics): M {
  const apply = messages.applyDeliveryReport.bind(messages);
  return Object.assign(Object.create(messages) as M, {
    async applyDeliveryReport(...args: Parameters<MessageRepository['applyDeliveryReport']>) {
      const updated = await apply(...args);
      if (updated) metrics.deliveryReport(updated.provider, args[1]);
      return updated;
    },
  });
}
