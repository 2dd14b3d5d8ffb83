// The top functions of a V8 CPU profile (`node --cpu-prof`), by self time and inclusive time,
// optionally within time windows (seconds from the profile's start), so that a service's start
// is left out of what a load cost. Used by service-miss.bench.ts; runs alone too:
//   npx tsx tests/bench/cpu-profile-summary.ts <file.cpuprofile> [fromS] [toS]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A window of the profile to summarise, in seconds from its start. */
export interface ProfileWindow {
  label: string;
  fromS: number;
  toS: number;
}

const frameName = ({ functionName, url, lineNumber }: ProfileNode['callFrame']): string => {
  const file = url.replace(/^file:\/\//, '').replace(/^.*?\/(src|node_modules|tests)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
};

/** Prints the top `top` functions by self and by inclusive time in each window (all by default). */
export function printProfileSummary(path: string, top: number, windows?: ProfileWindow[]): void {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const times: number[] = [];
  let at = 0;
  for (const delta of profile.timeDeltas) times.push((at += delta) / 1e6);
  for (const window of windows ?? [{ label: 'whole profile', fromS: 0, toS: Infinity }]) {
    const self = new Map<string, number>();
    const inclusive = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const t = times[i] ?? 0;
      if (t < window.fromS || t >= window.toS) return;
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      total += ms;
      const leaf = frameName(byId.get(id)!.callFrame);
      self.set(leaf, (self.get(leaf) ?? 0) + ms);
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const name = frameName(byId.get(n)!.callFrame);
        if (seen.has(name)) continue;
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
      }
    });
    const idle = self.get('(idle)') ?? 0;
    console.log(
      `\n${path} — ${window.label}: ${total.toFixed(0)} ms sampled, ${(total - idle).toFixed(0)} ms busy`,
    );
    const list = (title: string, m: Map<string, number>) => {
      console.log(`  ${title}:`);
      for (const [name, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
        console.log(
          `    ${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / (total - idle)).toFixed(1).padStart(5)} %  ${name}`,
        );
    };
    list('self', self);
    list('inclusive', inclusive);
  }
}

if (process.argv[1]?.endsWith('cpu-profile-summary.ts')) {
  const [file, from, to] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile> [fromS] [toS]');
  printProfileSummary(file, 40, [{ label: 'window', fromS: Number(from ?? 0), toS: Number(to ?? Infinity) }]);
}
