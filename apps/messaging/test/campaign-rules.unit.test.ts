import { describe, expect, it } from 'vitest';
import { checkTemplate, remindersOf } from '../src/campaigns/domain/campaign-rules.js';

describe('message template rules', () => {
  it('refuses a template that shows the TCKN (any case, spaces allowed), naming the field: the text of every SMS is kept', () => {
    for (const template of ['Kimlik {{tckn}}: {{link}}', '{{ TCKN }} {{link}}', '{{Tckn}}{{link}}'])
      expect(() => checkTemplate(template, 'message_template')).toThrow(
        expect.objectContaining({ fields: { message_template: expect.stringContaining('must not show {{tckn}}') } }),
      );
    expect(() => remindersOf([{ after: 'P1D', messageTemplate: 'Hatırlatma {{tckn}} {{link}}' }])).toThrow(
      expect.objectContaining({ fields: { 'reminders[0].message_template': expect.stringContaining('{{tckn}}') } }),
    );
    expect(() => checkTemplate('Merhaba {{name}}, {{tckn_note}}: {{link}}', 'message_template')).not.toThrow();
  });
});
