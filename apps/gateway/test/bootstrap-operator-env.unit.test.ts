import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env.js';

const base = { ADMIN_TOKEN: 'x'.repeat(24) };

describe('BOOTSTRAP_OPERATOR_EMAIL and BOOTSTRAP_OPERATOR_PASSWORD_FILE', () => {
  it('are both or neither; the file gives the password without its final newline', () => {
    expect(loadEnv(base).bootstrapOperator).toBeNull();
    const file = join(mkdtempSync(join(tmpdir(), 'bootstrap-')), 'password');
    writeFileSync(file, 'a long enough secret\n');
    expect(
      loadEnv({ ...base, BOOTSTRAP_OPERATOR_EMAIL: 'ops@example.com', BOOTSTRAP_OPERATOR_PASSWORD_FILE: file }).bootstrapOperator,
    ).toEqual({
      email: 'ops@example.com',
      password: 'a long enough secret',
    });
    expect(() => loadEnv({ ...base, BOOTSTRAP_OPERATOR_EMAIL: 'ops@example.com' })).toThrow(/BOOTSTRAP_OPERATOR_PASSWORD_FILE: is needed/);
    expect(() => loadEnv({ ...base, BOOTSTRAP_OPERATOR_PASSWORD_FILE: file })).toThrow(/BOOTSTRAP_OPERATOR_EMAIL: is needed/);
    expect(() =>
      loadEnv({ ...base, BOOTSTRAP_OPERATOR_EMAIL: 'ops@example.com', BOOTSTRAP_OPERATOR_PASSWORD_FILE: join(file, 'nope') }),
    ).toThrow(/BOOTSTRAP_OPERATOR_PASSWORD_FILE: cannot read/);
  });
});
