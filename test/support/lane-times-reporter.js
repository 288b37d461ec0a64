// A jest reporter of our own: after every run, each lane's time and the 15 slowest test files.
// A lane's wall time runs from its first file's start to its last file's end (lanes share the
// workers, so the walls overlap); its file time is the sum of its files' run times.
const { relative } = require('node:path');

const SLOWEST = 15;

class LaneTimesReporter {
  constructor(globalConfig) {
    this.root = globalConfig.rootDir;
    this.files = [];
    this.started = Date.now();
  }

  onRunStart() {
    this.started = Date.now();
  }

  onTestResult(test, result) {
    const lane = test.context.config.displayName?.name ?? 'tests';
    const { start, end } = result.perfStats;
    this.files.push({ lane, path: relative(this.root, result.testFilePath), start, end, ms: end - start, failed: result.numFailingTests > 0 || result.testExecError != null });
  }

  onRunComplete() {
    if (this.files.length === 0) return;
    const s = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
    const lines = ['', 'Lane times (wall: first start to last end; files: summed run time of its files):'];
    const lanes = [...new Set(this.files.map((f) => f.lane))];
    for (const lane of lanes) {
      const files = this.files.filter((f) => f.lane === lane);
      const wall = Math.max(...files.map((f) => f.end)) - Math.min(...files.map((f) => f.start));
      const sum = files.reduce((n, f) => n + f.ms, 0);
      lines.push(`  ${lane.padEnd(10)} ${String(files.length).padStart(4)} files   wall ${s(wall)}   files ${s(sum)}`);
    }
    lines.push(`  ${'all'.padEnd(10)} ${String(this.files.length).padStart(4)} files   wall ${s(Date.now() - this.started)}`);
    lines.push(`The ${Math.min(SLOWEST, this.files.length)} slowest files:`);
    for (const f of [...this.files].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)) lines.push(`  ${s(f.ms)}  ${f.lane.padEnd(10)} ${f.path}${f.failed ? '  (failed)' : ''}`);
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

module.exports = LaneTimesReporter;
