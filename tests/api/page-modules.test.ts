// The pages' ES modules (src/api/public, no build step) as small modules with one job each (#46): each says its job
// in a top comment, imports only what a sibling exports, and the DOM helpers are dom.js's alone. A broken import
// would otherwise show only in a browser, as a page that never draws.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PUBLIC = join(import.meta.dirname, '../../src/api/public');
const modules = readdirSync(PUBLIC).filter((f) => f.endsWith('.js'));
const source = new Map(modules.map((f) => [f, readFileSync(join(PUBLIC, f), 'utf8')]));

/** The names a module exports (`export function|const|let|class name`; the pages use no other form). */
function exportsOf(file: string): Set<string> {
  return new Set([...(source.get(file) ?? '').matchAll(/^export (?:async )?(?:function\*? ?|const |let |class )([\w$]+)/gm)].map((m) => m[1] as string));
}

/** Each `import { a, b as c } from './x.js'`: the file and the names taken from it. */
function importsOf(file: string): { from: string; names: string[] }[] {
  return [...(source.get(file) ?? '').matchAll(/^import\s*\{([^}]*)\}\s*from\s*'\.\/([^']+)';/gm)].map((m) => ({
    from: m[2] as string,
    names: (m[1] as string)
      .split(',')
      .map((n) => n.trim().split(/\s+as\s+/)[0] as string)
      .filter(Boolean),
  }));
}

describe('the page modules', () => {
  it('are found (the scan sees the scoreboard and its parts)', () => {
    expect(modules).toContain('scoreboard.js');
    expect(importsOf('scoreboard.js').length).toBeGreaterThan(10);
    expect(exportsOf('dom.js')).toEqual(new Set(['SVG_NS', 'PIPS', 'h', 's', '$']));
  });

  it('each start with a comment saying their job', () => {
    expect(modules.filter((f) => !/^\/\/ \S/.test(source.get(f) ?? ''))).toEqual([]);
  });

  it('import only modules that exist and names they export', () => {
    const broken: string[] = [];
    for (const file of modules) {
      for (const { from, names } of importsOf(file)) {
        if (!source.has(from)) {
          broken.push(`${file}: ./${from} does not exist`);
          continue;
        }
        const exported = exportsOf(from);
        for (const name of names) if (!exported.has(name)) broken.push(`${file}: ./${from} exports no ${name}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('build elements with dom.js’s h and s, not helpers of their own', () => {
    const own = modules.filter((f) => f !== 'dom.js' && /^(?:function [hs]\(|const [hs] = )/m.test(source.get(f) ?? ''));
    expect(own).toEqual([]);
  });
});
