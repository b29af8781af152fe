export { createKafka, pinoLogCreator, type CreateKafkaOptions } from './kafka-client.js';
export { createProducer, type CreateProducerOptions, type OutgoingMessage, type Producer } from './producer.js';
export { runConsumer, type ConsumerHandle, type RunConsumerOptions } from './consumer.js';
export type { ConsumedMessage, MessageHandler } from './message-processor.js';
export { memoryIdempotencyStore, type IdempotencyStore } from './idempotency.js';
export { mongoIdempotencyStore } from './idempotency.mongo.js';
export { defaultDeadLetterTopic, PoisonMessageError } from './dead-letter.js';
export { ensureTopics, type TopicSpec } from './topics.js';
export { decodeHeaders, KAFKA_HEADERS } from './headers.js';
