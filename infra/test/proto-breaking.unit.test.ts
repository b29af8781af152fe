import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/proto-breaking.mjs');

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of proto/ (with its released baseline) outside any git checkout. */
function protoCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proto-breaking-'));
  dirs.push(dir);
  cpSync(join(ROOT, 'proto'), join(dir, 'proto'), { recursive: true });
  return join(dir, 'proto');
}

/** Replaces `from` (which must occur exactly once) with `to` in proto/<file>. */
function edit(proto: string, file: string, from: string, to: string) {
  const path = join(proto, file);
  const text = readFileSync(path, 'utf8');
  expect(text.split(from).length, `${file} contains ${from} once`).toBe(2);
  writeFileSync(path, text.replace(from, to));
}

function check(proto: string) {
  const run = spawnSync('node', [SCRIPT, '--proto', proto], { encoding: 'utf8' });
  return { rc: run.status, out: `${run.stdout}${run.stderr}` };
}

const FLOW = 'feedback/flow/v1/flow.proto';
const FILE = 'feedback/file/v1/file.proto';
const MESSAGING = 'feedback/messaging/v1/messaging.proto';
const SHORTENER = 'feedback/shortener/v1/shortener.proto';
const SURVEY = 'feedback/survey/v1/survey.proto';

describe('pnpm proto:breaking (buf breaking against proto/released.binpb)', () => {
  it('passes on the tree as committed', () => {
    const { rc, out } = check(protoCopy());
    expect(out).toContain('proto: no breaking change against the released baseline');
    expect(rc).toBe(0);
  });

  // One incompatible change per contract kind: a gRPC request field's type and number, an RPC
  // deleted, and a field of each Kafka event (sms.dispatch, sms.status, file.uploaded,
  // link.clicked, survey.answered), each with the line buf prints for it.
  const breaks: { name: string; file: string; from: string; to: string; says: string }[] = [
    {
      name: "a service request field's type (FlowService.GetFlow)",
      file: FLOW,
      from: '  string flow_id = 2;\n}\n\nmessage CreateFlowResponse',
      to: '  int64 flow_id = 2;\n}\n\nmessage CreateFlowResponse',
      says: 'Field "2" with name "flow_id" on message "GetFlowRequest" changed type from "string" to "int64"',
    },
    {
      name: "a service request field's number (FlowService.GetFlow)",
      file: FLOW,
      from: '  string flow_id = 2;\n}\n\nmessage CreateFlowResponse',
      to: '  string flow_id = 3;\n}\n\nmessage CreateFlowResponse',
      says: 'Previously present field "2" with name "flow_id" on message "GetFlowRequest" was deleted without reserving the number "2"',
    },
    {
      name: 'a deleted RPC (FileService.DeleteFile)',
      file: FILE,
      from: '  rpc DeleteFile(DeleteFileRequest) returns (DeleteFileResponse);\n',
      to: '',
      says: 'Previously present RPC "DeleteFile" on service "FileService" was deleted',
    },
    {
      name: 'an sms.dispatch event field (SmsDispatch.phone)',
      file: MESSAGING,
      from: '  string phone = 4;\n  // As the caller wrote it.',
      to: '  int64 phone = 4;\n  // As the caller wrote it.',
      says: 'Field "4" with name "phone" on message "SmsDispatch" changed type from "string" to "int64"',
    },
    {
      name: 'an sms.status event field (SmsStatusChanged.status)',
      file: MESSAGING,
      from: '  string status = 5;\n  string error = 6;\n  string at = 7;',
      to: '  int32 status = 5;\n  string error = 6;\n  string at = 7;',
      says: 'Field "5" with name "status" on message "SmsStatusChanged" changed type from "string" to "int32"',
    },
    {
      name: 'a file.uploaded event field (FileUploaded.file renumbered)',
      file: FILE,
      from: 'message FileUploaded {\n  File file = 1;',
      to: 'message FileUploaded {\n  File file = 2;',
      says: 'Previously present field "1" with name "file" on message "FileUploaded" was deleted without reserving the number "1"',
    },
    {
      name: 'a link.clicked event field (LinkClicked.clicked_at_ms)',
      file: SHORTENER,
      from: 'repeated int64 clicked_at_ms = 2;',
      to: 'repeated string clicked_at_ms = 2;',
      says: 'Field "2" with name "clicked_at_ms" on message "LinkClicked" changed type from "int64" to "string"',
    },
    {
      name: 'a survey.answered event field (SurveyAnswered.response deleted)',
      file: SURVEY,
      from: 'message SurveyAnswered {\n  SurveyResponse response = 1;\n}',
      to: 'message SurveyAnswered {}',
      says: 'Previously present field "1" with name "response" on message "SurveyAnswered" was deleted without reserving the number "1"',
    },
  ];

  it.each(breaks)('fails on $name, naming it', ({ file, from, to, says }) => {
    const proto = protoCopy();
    edit(proto, file, from, to);
    const { rc, out } = check(proto);
    // buf's own report, quoted as it is.
    console.log(out);
    expect(out).toContain('proto: breaking change against the released baseline');
    expect(out).toContain(`${file}:`);
    expect(out).toContain(says);
    expect(rc).toBe(1);
  });

  it('passes on compatible changes: a new request field, a new RPC, a new event field, a renamed field', () => {
    const proto = protoCopy();
    edit(
      proto,
      FLOW,
      '  string flow_id = 2;\n}\n\nmessage CreateFlowResponse',
      '  string flow_id = 2;\n  string locale = 3;\n}\n\nmessage CreateFlowResponse',
    );
    edit(
      proto,
      FLOW,
      '  rpc GetFlow(GetFlowRequest) returns (GetFlowResponse);',
      '  rpc GetFlow(GetFlowRequest) returns (GetFlowResponse);\n  rpc GetFlowAgain(GetFlowRequest) returns (GetFlowResponse);',
    );
    edit(proto, MESSAGING, '  uint32 reminder = 8;\n}', '  uint32 reminder = 8;\n  string sender = 9;\n}');
    // WIRE, not WIRE_JSON: no contract is JSON-encoded, so a field name never travels.
    edit(proto, SHORTENER, 'repeated int64 clicked_at_ms = 2;', 'repeated int64 clicked_at_unix_ms = 2;');
    const { rc, out } = check(proto);
    expect(out).toBe(`proto: no breaking change against the released baseline (${join(proto, 'released.binpb')})\n`);
    expect(rc).toBe(0);
  });

  it('in a git checkout with uncommitted changes, also compares with HEAD (a break the baseline cannot see yet)', () => {
    const proto = protoCopy();
    const repo = resolve(proto, '..');
    const git = (...args: string[]) => {
      const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
    };
    git('init', '-q');
    // A field added after the baseline was recorded and committed...
    edit(
      proto,
      FLOW,
      '  string flow_id = 2;\n}\n\nmessage CreateFlowResponse',
      '  string flow_id = 2;\n  string locale = 3;\n}\n\nmessage CreateFlowResponse',
    );
    git('add', '.');
    git('commit', '-q', '-m', 'locale');
    expect(check(proto).rc).toBe(0);
    // ...then renumbered before the next commit: the baseline has no such field, HEAD has.
    edit(proto, FLOW, '  string locale = 3;', '  string locale = 4;');
    const { rc, out } = check(proto);
    expect(out).toContain('proto: no breaking change against the released baseline');
    expect(out).toContain('proto: breaking change against HEAD (uncommitted changes in proto/)');
    expect(out).toContain(
      'Previously present field "3" with name "locale" on message "GetFlowRequest" was deleted without reserving the number "3"',
    );
    expect(rc).toBe(1);
  });
});
