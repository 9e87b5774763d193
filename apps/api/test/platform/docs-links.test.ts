import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README, CONTRIBUTING and docs/ are read inside the repository: every link they hold
// resolves in it, and every "decisions §N" cited anywhere names a section of docs/decisions.md.
const root = resolve(import.meta.dirname, '..', '..', '..', '..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.turbo', '.data', 'artifacts', '.changeset']);

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

const pages = filesUnder(root, (name) => name.endsWith('.md'));
const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

function anchorsOf(page: string): Set<string> {
  const headings = withoutCode(readFileSync(page, 'utf8')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

describe('the docs', () => {
  it('are found (README, CONTRIBUTING, docs/)', () => {
    const names = pages.map((page) => relative(root, page));
    for (const name of ['README.md', 'CONTRIBUTING.md', 'docs/decisions.md', 'docs/api.md']) {
      expect(names).toContain(name);
    }
  });

  it('link only to files and headings inside the repository', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = withoutCode(readFileSync(page, 'utf8'));
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?|mailto):/.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? page : resolve(dirname(page), path);
        const where = `${relative(root, page)} -> ${target}`;
        if (relative(root, file).startsWith('..')) broken.push(`${where} (outside the repository)`);
        else if (!existsSync(file)) broken.push(`${where} (no such file)`);
        else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor))
          broken.push(`${where} (no such heading)`);
      }
      if (/\.\.\/shared\/|\/work\//.test(text)) broken.push(`${relative(root, page)} names a path outside`);
    }
    expect(broken).toEqual([]);
  });

  it('every "decisions §N" in code, tests and docs names a section of docs/decisions.md', () => {
    const decisions = readFileSync(join(root, 'docs', 'decisions.md'), 'utf8');
    const sections = new Set([...decisions.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
    expect(sections.size).toBeGreaterThan(0);
    const sources = [...pages, ...filesUnder(root, (name) => /\.(ts|tsx|mjs|cjs|js)$/.test(name))];
    const unknown: string[] = [];
    let cited = 0;
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      // "decisions §2", "decisions §2-§5", "Decisions §6's": each number is a section.
      for (const [citation = ''] of text.matchAll(/decisions §\s?\d+(?:\s?-\s?§\s?\d+)?/gi)) {
        for (const [number = ''] of citation.matchAll(/\d+/g)) {
          cited++;
          if (!sections.has(number)) unknown.push(`${relative(root, file)}: ${citation}`);
        }
      }
    }
    expect(cited).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });
});
