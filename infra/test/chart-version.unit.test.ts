import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedFiles, checkChart, hasChangelogEntry, newestRelease, versionProblems, type Comparison } from '../chart-version.js';

/** infra/chart-version.ts: a changed chart needs a greater version than the last release and a CHANGELOG entry. */
const base: Comparison = { releaseVersion: '0.2.0', currentVersion: '0.2.0', changed: [], changelog: '', imageTag: '' };

describe('versionProblems', () => {
  it('an unchanged chart at the release version is fine', () => {
    expect(versionProblems(base)).toEqual([]);
  });

  it('a change without a version bump is refused, naming the files', () => {
    const problems = versionProblems({ ...base, changed: ['templates/deployment.yaml'], changelog: '## 0.2.0\n' });
    expect(problems).toEqual([
      expect.stringMatching(/changed since release 0\.2\.0 \(templates\/deployment\.yaml\).*still 0\.2\.0: raise it/),
    ]);
  });

  it('a bump without its CHANGELOG entry is refused', () => {
    const problems = versionProblems({ ...base, currentVersion: '0.3.0', changed: ['values.yaml'], changelog: '## 0.2.0\n' });
    expect(problems).toEqual([expect.stringContaining('CHANGELOG.md has no entry "## 0.3.0"')]);
  });

  it('a bump with its entry passes', () => {
    expect(versionProblems({ ...base, currentVersion: '0.3.0', changed: ['values.yaml'], changelog: '# x\n\n## 0.3.0\n\n- y\n' })).toEqual(
      [],
    );
  });

  it('a version below the release is refused, changed or not', () => {
    expect(versionProblems({ ...base, currentVersion: '0.1.9' })).toEqual([expect.stringContaining('below the last release')]);
  });

  it('an image tag pinned in values.yaml is refused: the tag is the appVersion', () => {
    expect(versionProblems({ ...base, imageTag: '0.1.0' })).toEqual([expect.stringContaining('image.tag is "0.1.0"')]);
    expect(versionProblems({ ...base, imageTag: undefined })).toEqual([]);
  });

  it('a version that is not semver is refused', () => {
    expect(versionProblems({ ...base, currentVersion: 'next' })).toEqual([expect.stringContaining('not a semantic version')]);
  });
});

describe('helpers', () => {
  it('hasChangelogEntry matches the version heading only', () => {
    expect(hasChangelogEntry('## 0.3.0\n', '0.3.0')).toBe(true);
    expect(hasChangelogEntry('## [0.3.0] - 2026-11-28\n', '0.3.0')).toBe(true);
    expect(hasChangelogEntry('## 0.3.01\n- 0.3.0 mentioned\n', '0.3.0')).toBe(false);
    expect(hasChangelogEntry('## 0x3x0\n', '0.3.0')).toBe(false);
  });

  it('newestRelease compares versions, not names', () => {
    expect(newestRelease(['feedback-0.9.0.tgz', 'feedback-0.10.0.tgz', 'README.md', 'feedback-1.0.0-rc.1.tgz'])).toEqual({
      file: 'feedback-1.0.0-rc.1.tgz',
      version: '1.0.0-rc.1',
    });
    expect(newestRelease(['feedback-0.9.0.tgz', 'feedback-0.10.0.tgz'])?.version).toBe('0.10.0');
    expect(newestRelease(['README.md'])).toBeUndefined();
  });

  it('changedFiles: added, removed and changed paths', () => {
    const a = new Map([
      ['values.yaml', 'a'],
      ['templates/x.yaml', 'x'],
    ]);
    const b = new Map([
      ['values.yaml', 'a'],
      ['templates/y.yaml', 'y'],
    ]);
    expect(changedFiles(a, b)).toEqual(['templates/x.yaml', 'templates/y.yaml']);
    expect(changedFiles(a, new Map(a))).toEqual([]);
  });
});

describe('checkChart against a packaged release', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A chart at 0.1.0 released as feedback-0.1.0.tgz, and a working copy of it. */
  function setup() {
    dir = mkdtempSync(join(tmpdir(), 'chart-version-'));
    const chart = join(dir, 'feedback');
    mkdirSync(join(chart, 'templates'), { recursive: true });
    writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: feedback\nversion: 0.1.0\nappVersion: "1.0.0"\n');
    writeFileSync(join(chart, 'values.yaml'), 'image:\n  tag: ""\n');
    writeFileSync(join(chart, 'templates/cm.yaml'), 'kind: ConfigMap\n');
    writeFileSync(join(chart, 'README.md'), 'readme\n');
    mkdirSync(join(dir, 'releases'));
    execFileSync('tar', ['czf', join(dir, 'releases/feedback-0.1.0.tgz'), '-C', dir, 'feedback']);
    const work = join(dir, 'work');
    cpSync(chart, work, { recursive: true });
    return { work, releases: join(dir, 'releases') };
  }

  it('unchanged, or only its README: fine', () => {
    const { work, releases } = setup();
    expect(checkChart(work, releases).problems).toEqual([]);
    writeFileSync(join(work, 'README.md'), 'more\n');
    expect(checkChart(work, releases)).toEqual({ release: 'feedback-0.1.0.tgz', changed: [], problems: [] });
  });

  it('a template changed: refused until the version is raised and CHANGELOG.md has its entry', () => {
    const { work, releases } = setup();
    writeFileSync(join(work, 'templates/cm.yaml'), 'kind: ConfigMap\nmetadata: {}\n');
    expect(checkChart(work, releases).problems).toHaveLength(2);
    writeFileSync(join(work, 'Chart.yaml'), 'apiVersion: v2\nname: feedback\nversion: 0.2.0\nappVersion: "1.0.0"\n');
    expect(checkChart(work, releases).problems).toEqual([expect.stringContaining('no entry "## 0.2.0"')]);
    writeFileSync(join(work, 'CHANGELOG.md'), '## 0.2.0\n\n- metadata\n');
    const result = checkChart(work, releases);
    expect(result.problems).toEqual([]);
    expect(result.changed).toEqual(['Chart.yaml', 'templates/cm.yaml']);
  });

  it('a file added under files/ counts as a change', () => {
    const { work, releases } = setup();
    mkdirSync(join(work, 'files'));
    writeFileSync(join(work, 'files/new.json'), '{}');
    expect(checkChart(work, releases).changed).toEqual(['files/new.json']);
  });

  it('no release at all is a problem', () => {
    const { work } = setup();
    expect(checkChart(work, join(dir, 'none')).problems).toEqual([expect.stringContaining('no released chart')]);
  });
});

describe('the repository chart', () => {
  it('is in order against its last release', () => {
    expect(checkChart().problems).toEqual([]);
  });
});
