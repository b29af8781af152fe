export { createKafka, pinoLogCreator, type CreateKafkaOptions } from './kafka-client.js';
export { kafkaConnection, kafkaSecurityEnv, type KafkaConnection, type KafkaSaslMechanism } from './kafka-security.js';
export { createProducer, type CreateProducerOptions, type OutgoingMessage, type Producer } from './producer.js';
export { startConsumerLifecycle, type ConsumerHandle, type ConsumerLifecycleOptions, type ConsumerSession } from './consumer-lifecycle.js';
export { runConsumer, type RunConsumerOptions } from './consumer.js';
export {
  runBatchConsumer,
  type BatchHandler,
  type BatchTools,
  type ConsumedBatch,
  type RunBatchConsumerOptions,
} from './batch-consumer.js';
export { toConsumedMessage, type ConsumedMessage, type MessageHandler } from './message-processor.js';
export { deadLetterMessage, defaultDeadLetterTopic, PoisonMessageError, type FailedMessage } from './dead-letter.js';
export { ensureTopics, type TopicSpec } from './topics.js';
export { decodeHeaders, KAFKA_HEADERS } from './headers.js';
export { runErasureConsumer } from './data-erasure.consumer.js';
export { retentionOf, retentionTopicSpec, runRetentionConsumer } from './retention.consumer.js';
