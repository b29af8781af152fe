#!/usr/bin/env node
// Fails when a comment or a document cites an issue number, or names a file the repository does
// not have: the tree has to stand on its own, and a path that moved leaves a reader nowhere.
//
//   node scripts/check-references.mjs [ROOT]   ROOT defaults to the repository; exit 1 on a finding
//
// What is read: Markdown files whole (their code blocks too), and only the comments of code and
// scripts (TypeScript/JavaScript `//` and `/* */`; `#` comments and Python docstrings elsewhere).
// What counts:
// - an issue number: the word issue(s), PR(s) or pull request(s) followed by a number (with or
//   without "#"), also split over a comment's line break; never an HTTP status, an RFC, "issued"
//   or a URL (another project's tracker is a source a reader can open);
// - a missing file, resolved as a reader would:
//   - a Markdown link's target (not a URL, not an anchor) against the linking file's folder;
//   - a path under a top-level folder (`apps/…`, `docs/…`, …) against the repository's root
//     (up to the first glob or placeholder character: `apps/*/src` checks `apps/`);
//   - any other `….md` name against the root, then the file's folder; a bare file name ending
//     in .md must exist somewhere in the tree.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from './repo-files.mjs';

/** Generated or third-party text: nobody writes its comments here. */
const SKIPPED_FILES = [/^packages\/proto\/src\/gen\//, /^pnpm-lock\.yaml$/, /^patches\//];
const SLASH_COMMENTS = /\.(?:[cm]?[jt]sx?|proto)$/;
const HASH_COMMENTS =
  /(?:\.(?:sh|py|ya?ml|toml|tpl|txt)|(?:^|\/)(?:Dockerfile|stack|run|feedbackctl|\.[a-z]+ignore|\.npmrc|\.shellcheckrc))$/;

const ISSUE = /\b(?:issues?|pull requests?|PRs?)(?:[\s*/#]|\/\/)*#?\d+\b/gi;
const TOP_LEVEL = ['apps', 'packages', 'docs', 'infra', 'deploy', 'proto', 'scripts', 'bench', 'patches'];
const TOP_PATH = new RegExp(`(?<![\\w./@$-])(?:${TOP_LEVEL.join('|')})/[\\w.@+/-]*`, 'g');
const MD_NAME = /(?<![\w./@$-])(?:\.{1,2}\/)?[\w@+-][\w@.+-]*(?:\/[\w@.+-]+)*\.md\b/g;
const MD_LINK = /\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

const lineAround = (text, i) => text.slice(text.lastIndexOf('\n', i) + 1, (text.indexOf('\n', i) + 1 || text.length + 1) - 1);

/**
 * The comments of a C-like source as [offset, text] pieces; strings, template literals and regular
 * expression literals are skipped so that a `//` inside them is not a comment.
 */
export function slashComments(src) {
  const out = [];
  let i = 0;
  let prev = ''; // the last significant character outside comments, to tell a regex from a division
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      const end = src.indexOf('\n', i);
      const stop = end === -1 ? src.length : end;
      out.push([i, src.slice(i, stop)]);
      i = stop;
    } else if (c === '/' && n === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      out.push([i, src.slice(i, stop)]);
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') i++;
        else if (c !== '`' && src[i] === '\n') break;
        i++;
      }
      i++;
      prev = c;
    } else if (c === '/' && (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev))) {
      // a regular expression literal
      i++;
      let inClass = false;
      while (i < src.length && src[i] !== '\n' && (inClass || src[i] !== '/')) {
        if (src[i] === '\\') i++;
        else if (src[i] === '[') inClass = true;
        else if (src[i] === ']') inClass = false;
        i++;
      }
      i++;
      prev = ')';
    } else {
      if (!/\s/.test(c)) prev = /[\w$]/.test(c) ? 'a' : c;
      i++;
    }
  }
  return out;
}

/** `#` comments (at a line's start or after a blank) and, in Python, docstrings. */
export function hashComments(src, python) {
  const out = [];
  const re = python ? /"""[\s\S]*?"""|(?<=^|[ \t])#.*/gm : /(?<=^|[ \t])#.*/gm;
  for (const m of src.matchAll(re)) out.push([m.index, m[0]]);
  return out;
}

/** The pieces of a file that are prose: [offset, text]. */
function prose(file, src) {
  if (file.endsWith('.md')) return [[0, src]];
  if (SLASH_COMMENTS.test(file)) return slashComments(src);
  if (HASH_COMMENTS.test(file) || src.startsWith('#!')) return hashComments(src, file.endsWith('.py'));
  return [];
}

/** Every finding in ROOT: { file, line, message }. */
export function checkReferences(root) {
  root = resolve(root);
  const files = listFiles(root).filter((f) => !SKIPPED_FILES.some((re) => re.test(f)));
  const names = new Set(files.map((f) => f.slice(f.lastIndexOf('/') + 1)));
  const exists = (p) => existsSync(p) && (p === root || p.startsWith(root + sep));
  const findings = [];
  for (const file of files) {
    let src;
    try {
      if (statSync(join(root, file)).size > 2_000_000) continue;
      src = readFileSync(join(root, file), 'utf8');
    } catch {
      continue;
    }
    if (src.includes('\0')) continue;
    const folder = dirname(join(root, file));
    const lineOf = (offset) => src.slice(0, offset).split('\n').length;
    const report = (offset, message) => findings.push({ file, line: lineOf(offset), message });
    for (const [at, text] of prose(file, src)) {
      for (const m of text.matchAll(ISSUE)) {
        // Inside a URL it is another project's tracker, a source a reader can open.
        if (/[a-z][\w+.-]*:\/\/\S*$/i.test(text.slice(0, m.index))) continue;
        report(at + m.index, `cites an issue number: "${m[0].replace(/\s+/g, ' ')}"`);
      }
      const seen = new Set();
      const missing = (offset, ref, why) => {
        if (seen.has(`${offset}`)) return;
        seen.add(`${offset}`);
        report(offset, `names ${ref}, which ${why}`);
      };
      if (file.endsWith('.md')) {
        for (const m of text.matchAll(MD_LINK)) {
          const target = m[1];
          if (/^[a-z][\w+.-]*:/i.test(target) || target.startsWith('#') || /[{<$]/.test(target)) continue;
          const path = decodeURI(target.split(/[#?]/)[0]);
          if (!path) continue;
          const abs = path.startsWith('/') ? join(root, path) : resolve(folder, path);
          if (!exists(abs)) missing(at + m.index + m[0].indexOf(target), `the link ${target}`, 'does not exist');
        }
      }
      for (const m of text.matchAll(TOP_PATH)) {
        let path = m[0].replace(/[.]+$/, '');
        // A glob or placeholder goes on: only the folders before it are named (`apps/*/src`: `apps/`).
        if (/[*{<$[]/.test(text[m.index + m[0].length] ?? '')) path = path.slice(0, path.lastIndexOf('/') + 1);
        // "525 docs/s" is a rate; kubectl's `deploy/NAME` is a Deployment.
        if (/\d $/.test(text.slice(0, m.index)) || (path.startsWith('deploy/') && /kubectl/.test(lineAround(text, m.index)))) continue;
        if (!exists(join(root, path))) missing(at + m.index, path, 'the repository does not have');
      }
      for (const m of text.matchAll(MD_NAME)) {
        const path = m[0];
        if (TOP_LEVEL.some((t) => path.startsWith(`${t}/`))) continue; // checked above
        const found = path.includes('/') ? exists(join(root, path)) || exists(resolve(folder, path)) : names.has(path);
        if (!found) missing(at + m.index, path, 'the repository does not have');
      }
    }
  }
  return findings;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  const findings = checkReferences(root);
  for (const f of findings) console.log(`${relative(process.cwd(), join(resolve(root), f.file))}:${f.line}: ${f.message}`);
  if (findings.length > 0) {
    console.log(`${findings.length} reference(s) to an issue or to a file the repository does not have`);
    process.exit(1);
  }
}
