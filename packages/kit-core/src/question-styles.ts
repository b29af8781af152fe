/**
 * The question styles of a flow and what an answer to each may be (docs/flows.md). The flow
 * service accepts these styles, the survey service checks answers against them and the
 * gateway's survey page renders them, so the table lives here once.
 */

/** The answer is one option key (two or more for multiple_choice); at least two options. */
const CHOICE_STYLES = ['single_choice', 'multiple_choice', 'dropdown'] as const;

/** Integer points of each scale; yes_no is 1 (yes) or 0 (no). Options only label the points. */
const SCALES = {
  nps: { min: 0, max: 10 },
  csat: { min: 1, max: 5 },
  ces: { min: 1, max: 7 },
  star_rating: { min: 1, max: 5 },
  emoji_rating: { min: 1, max: 5 },
  yes_no: { min: 0, max: 1 },
} as const satisfies Record<string, Scale>;

/** No options: a text or number answer, or none (statement). */
const INPUT_STYLES = ['short_text', 'long_text', 'email', 'phone', 'number', 'date', 'statement'] as const;

const SCALE_STYLES = Object.keys(SCALES) as ScaleStyle[];
export const QUESTION_STYLES: readonly QuestionStyle[] = [...CHOICE_STYLES, ...SCALE_STYLES, ...INPUT_STYLES];

/** Longest text answer per text style (characters). */
export const TEXT_LIMITS = { short_text: 500, long_text: 5000, email: 254, phone: 40, date: 10 } as const;

export interface Scale {
  min: number;
  max: number;
}
export type ChoiceStyle = (typeof CHOICE_STYLES)[number];
export type ScaleStyle = keyof typeof SCALES;
export type InputStyle = (typeof INPUT_STYLES)[number];
export type QuestionStyle = ChoiceStyle | ScaleStyle | InputStyle;

export const isChoiceStyle = (style: string): style is ChoiceStyle => (CHOICE_STYLES as readonly string[]).includes(style);
export const isInputStyle = (style: string): style is InputStyle => (INPUT_STYLES as readonly string[]).includes(style);
export const isQuestionStyle = (style: string): style is QuestionStyle => (QUESTION_STYLES as readonly string[]).includes(style);

/** The scale of a scale style; undefined for any other style. */
export const scaleOf = (style: string): Scale | undefined => (Object.hasOwn(SCALES, style) ? SCALES[style as ScaleStyle] : undefined);

/** The longest text answer of a style; long_text's for styles without their own. */
export const textLimitOf = (style: string): number =>
  Object.hasOwn(TEXT_LIMITS, style) ? TEXT_LIMITS[style as keyof typeof TEXT_LIMITS] : TEXT_LIMITS.long_text;

/**
 * flow/v1 has no "required" flag: choice and scale questions must be answered, input questions
 * may be left empty, a statement takes no answer. When flows get a flag, it replaces this.
 */
export const isRequiredStyle = (style: string): boolean => isChoiceStyle(style) || scaleOf(style) !== undefined;
