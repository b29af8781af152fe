import { describe, expect, it } from 'vitest';
import { ConfigError, env, loadConfig } from '../src/config.js';
import { sensitiveNames } from '../src/personal-data.js';

const read = (value: string | undefined) =>
  loadConfig({ SENSITIVE_CUSTOMER_ATTRIBUTES: env.sensitiveAttributes() }, { SENSITIVE_CUSTOMER_ATTRIBUTES: value });

describe('SENSITIVE_CUSTOMER_ATTRIBUTES (env.sensitiveAttributes) and sensitiveNames', () => {
  it('is tckn unless set; a list of attribute names, trimmed', () => {
    expect(read(undefined).SENSITIVE_CUSTOMER_ATTRIBUTES).toEqual(['tckn']);
    expect(read(' passport_no , Vergi-No ').SENSITIVE_CUSTOMER_ATTRIBUTES).toEqual(['passport_no', 'Vergi-No']);
  });

  it('refuses a name the attribute rule refuses, naming the variable and the name', () => {
    for (const bad of ['a.b', '$where', 'x'.repeat(65)]) {
      expect(() => read(`tckn,${bad}`)).toThrow(ConfigError);
      expect(() => read(`tckn,${bad}`)).toThrow(/SENSITIVE_CUSTOMER_ATTRIBUTES: must be attribute names: /);
    }
  });

  it('names the TCKN always, every name lower-cased', () => {
    expect([...sensitiveNames()]).toEqual(['tckn']);
    expect([...sensitiveNames(['Passport_No', 'TCKN'])].sort()).toEqual(['passport_no', 'tckn']);
  });
});
