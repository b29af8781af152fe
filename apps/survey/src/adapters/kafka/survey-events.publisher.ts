import type { Producer } from '@feedback/kit-kafka';
import { SurveyAnswered } from '@feedback/proto/feedback/survey/v1/survey';
import type { SurveyEvents } from '../../domain/ports.js';
import type { SurveyResponse } from '../../domain/response.js';
import { responseMessage } from '../../grpc/survey.messages.js';

const CONTENT_TYPE = 'application/x-protobuf; messageType=feedback.survey.v1.SurveyAnswered';

/** Keyed by customer, so one customer's answers keep their order; the event id repeats on retries. */
export function kafkaSurveyEvents(producer: Producer, topic: string): SurveyEvents {
  return {
    async answered(response: SurveyResponse) {
      const value = Buffer.from(SurveyAnswered.encode({ response: responseMessage(response) }).finish());
      await producer.publish(topic, [
        { key: response.customerId, value, eventId: `survey.answered:${response.id}`, contentType: CONTENT_TYPE },
      ]);
    },
  };
}
