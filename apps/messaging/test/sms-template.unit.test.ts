import { describe, expect, it } from 'vitest';
import { renderTemplate, templateNames } from '../src/shared/domain/sms-template.js';

describe('message templates', () => {
  it('fills {{link}} and custom attributes, spaces inside the braces allowed', () => {
    expect(renderTemplate('Sayın {{name}}, anketimiz: {{ link }}', { name: 'Çağrı', link: 'https://s.example/Ab1' })).toBe(
      'Sayın Çağrı, anketimiz: https://s.example/Ab1',
    );
  });

  it('renders a name the recipient lacks as empty', () => {
    expect(renderTemplate('Merhaba {{name}}! {{link}}', { link: 'L' })).toBe('Merhaba ! L');
  });

  it('never leaves braces of the template, even malformed ones', () => {
    const out = renderTemplate('a {{name b {{link}} c}} {{}} {{x}}', { link: 'L' });
    expect(out).toBe('a name b L c  ');
    expect(out).not.toMatch(/\{\{|\}\}/);
  });

  it('inserts values once, without expanding placeholders inside them', () => {
    expect(renderTemplate('{{name}}', { name: '{{link}}', link: 'L' })).toBe('{{link}}');
  });

  it('lists the names a template uses', () => {
    expect(templateNames('{{name}} {{ link }} {{name}}')).toEqual(['name', 'link']);
  });
});
