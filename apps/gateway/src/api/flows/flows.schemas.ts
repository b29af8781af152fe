import { Type } from '@fastify/type-provider-typebox';
import { LocalizedText } from '../../http/common.schemas.js';

const OptionSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  key: Type.String(),
  body: LocalizedText,
});

const QuestionSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  key: Type.String(),
  body: LocalizedText,
  style: Type.String({ description: 'Question style; see docs/flows.md for the allowed values.' }),
  options: Type.Array(OptionSchema),
});

/** The flow exactly as docs/flows.md shows it. */
export const FlowSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    questions: Type.Array(QuestionSchema),
  },
  {
    $id: 'Flow',
    examples: [
      {
        id: '8a1f6d3e-2b7c-4c1e-9a51-0f7e2d9b6c11',
        name: 'Store visit',
        questions: [
          {
            id: '0c5e8f2a-7d41-4b9e-8a3f-5e6d7c8b9a01',
            key: 'nps',
            body: { en: 'How likely are you to recommend us?' },
            style: 'nps',
            options: [],
          },
        ],
      },
    ],
  },
);

const OptionInput = Type.Object({ key: Type.String({ maxLength: 64 }), body: LocalizedText }, { additionalProperties: false });

export const FlowDefinitionSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    questions: Type.Array(
      Type.Object(
        {
          key: Type.String({ maxLength: 64 }),
          body: LocalizedText,
          style: Type.String({ maxLength: 64 }),
          options: Type.Optional(Type.Array(OptionInput, { maxItems: 100 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200 },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Store visit',
        questions: [
          { key: 'nps', body: { en: 'How likely are you to recommend us?' }, style: 'nps' },
          {
            key: 'reason',
            body: { en: 'What did you like most?' },
            style: 'single_choice',
            options: [
              { key: 'staff', body: { en: 'Our staff' } },
              { key: 'price', body: { en: 'Our prices' } },
            ],
          },
        ],
      },
    ],
  },
);
