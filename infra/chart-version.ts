/**
 * Chart versions people can rely on: the working tree's chart (deploy/helm/feedback) compared with the last
 * release, the newest deploy/helm/releases/feedback-<version>.tgz (unpacked with tar). When its templates/,
 * values.yaml, values.schema.json, files/ or Chart.yaml differ from the release's, Chart.yaml's version must be
 * greater than the release's and CHANGELOG.md must have an entry (`## <version>`) for it. In any case the
 * version never goes below the release's, and the image tag defaults to the chart's appVersion (values.yaml
 * `image.tag: ""`), so that a release sets both in Chart.yaml.
 *
 *   node --import tsx infra/chart-version.ts    exit 1 with the problems when a rule is broken (infra/k8s-tools.sh check)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';
import * as yaml from 'yaml';

export const CHART_DIR = resolve(import.meta.dirname, '../deploy/helm/feedback');
export const RELEASES_DIR = resolve(import.meta.dirname, '../deploy/helm/releases');

/** The parts of a chart whose change is a change of the chart (README, CHANGELOG and ci/ are not). */
const VERSIONED = [/^templates\//, /^files\//, /^values\.yaml$/, /^values\.schema\.json$/, /^Chart\.yaml$/];

/** The versioned files of a chart directory, by path relative to it. */
export function chartFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const rel = relative(dir, path).split('\\').join('/');
        if (VERSIONED.some((re) => re.test(rel))) files.set(rel, readFileSync(path, 'utf8'));
      }
    }
  };
  walk(dir);
  return files;
}

/** The paths added, removed or changed between two charts' versioned files. */
export function changedFiles(release: Map<string, string>, current: Map<string, string>): string[] {
  const paths = new Set([...release.keys(), ...current.keys()]);
  return [...paths].filter((p) => release.get(p) !== current.get(p)).sort();
}

/** Whether CHANGELOG.md has a `## <version>` heading. */
export function hasChangelogEntry(changelog: string, version: string): boolean {
  const escaped = version.replace(/[.+]/g, (c) => `\\${c}`);
  return new RegExp(`^##\\s+\\[?${escaped}\\]?(\\s|$)`, 'm').test(changelog);
}

export interface Comparison {
  releaseVersion: string;
  currentVersion: string;
  changed: string[];
  changelog: string;
  /** values.yaml's image.tag: empty means the chart's appVersion. */
  imageTag: unknown;
}

/** What breaks the rules; empty when the chart may ship as it is. */
export function versionProblems(c: Comparison): string[] {
  const problems: string[] = [];
  if (!semver.valid(c.currentVersion)) return [`Chart.yaml version ${c.currentVersion} is not a semantic version`];
  if (semver.lt(c.currentVersion, c.releaseVersion))
    problems.push(`Chart.yaml version ${c.currentVersion} is below the last release's, ${c.releaseVersion}`);
  if (c.changed.length > 0) {
    if (!semver.gt(c.currentVersion, c.releaseVersion))
      problems.push(
        `the chart changed since release ${c.releaseVersion} (${c.changed.join(', ')}) but Chart.yaml's version is still ${c.currentVersion}: raise it`,
      );
    if (!hasChangelogEntry(c.changelog, c.currentVersion))
      problems.push(`CHANGELOG.md has no entry "## ${c.currentVersion}" for the changes since release ${c.releaseVersion}`);
  }
  if (c.imageTag !== '' && c.imageTag !== undefined && c.imageTag !== null)
    problems.push(`values.yaml image.tag is "${String(c.imageTag)}": it must stay empty, so the image tag is Chart.yaml's appVersion`);
  return problems;
}

/** The newest released package: feedback-<version>.tgz with the greatest version. */
export function newestRelease(names: string[]): { file: string; version: string } | undefined {
  const releases = names
    .map((file) => ({ file, version: /^feedback-(.+)\.tgz$/.exec(file)?.[1] ?? '' }))
    .filter((r) => semver.valid(r.version));
  return releases.sort((a, b) => semver.rcompare(a.version, b.version))[0];
}

/** Compares the working tree's chart with the newest release; the problems found. */
export function checkChart(chartDir = CHART_DIR, releasesDir = RELEASES_DIR): { release: string; changed: string[]; problems: string[] } {
  const release = newestRelease(existsSync(releasesDir) ? readdirSync(releasesDir) : []);
  if (!release) return { release: '', changed: [], problems: [`no released chart (feedback-<version>.tgz) in ${releasesDir}`] };
  const tmp = mkdtempSync(join(tmpdir(), 'chart-release-'));
  try {
    execFileSync('tar', ['xzf', join(releasesDir, release.file), '-C', tmp]);
    const released = join(tmp, 'feedback');
    const chart = yaml.parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as { version: string };
    const releasedChart = yaml.parse(readFileSync(join(released, 'Chart.yaml'), 'utf8')) as { version: string };
    const values = yaml.parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as { image?: { tag?: unknown } };
    const changelogPath = join(chartDir, 'CHANGELOG.md');
    const changed = changedFiles(chartFiles(released), chartFiles(chartDir));
    const problems = versionProblems({
      releaseVersion: releasedChart.version,
      currentVersion: String(chart.version),
      changed,
      changelog: existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '',
      imageTag: values.image?.tag,
    });
    if (releasedChart.version !== release.version)
      problems.push(`${release.file} holds chart version ${releasedChart.version}, not ${release.version}`);
    return { release: release.file, changed, problems };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { release, changed, problems } = checkChart();
  if (problems.length > 0) {
    for (const p of problems) console.error(`chart version: ${p}`);
    process.exit(1);
  }
  console.log(
    `chart version: compared with ${release}: ${changed.length === 0 ? 'unchanged' : `${changed.length} file(s) changed, version and CHANGELOG.md entry in order`}`,
  );
}
