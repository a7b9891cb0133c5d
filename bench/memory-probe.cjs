// Loaded into each process of the served burst's server (bench/served-burst.ts) with NODE_OPTIONS=--require, so
// the bench can read the V8 heap beside the RSS it reads from /proc, without code in the app. Every 100 ms it
// notes the peak of process.memoryUsage() (heap used, heap total, external, array buffers, RSS). On SIGUSR2 it
// writes the current figures, the used size of each heap space and the peaks since the last SIGUSR2 to
// <GLASSBOX_BENCH_MEMORY_DIR>/<pid>.json and starts the peaks again; when the file <dir>/collect exists, it first
// runs a full collection (what is then left is what the process retains). The bench asks for that only after
// the measured bursts.
const { existsSync, renameSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");
const vm = require("node:vm");

const directory = process.env.GLASSBOX_BENCH_MEMORY_DIR;
if (directory) {
  const keys = ["rss", "heapUsed", "heapTotal", "external", "arrayBuffers"];
  const fresh = () => Object.fromEntries(keys.map((key) => [key, 0]));
  let peaks = fresh();
  const sample = () => {
    const usage = process.memoryUsage();
    for (const key of keys) peaks[key] = Math.max(peaks[key], usage[key]);
    return usage;
  };
  setInterval(sample, 100).unref();
  process.on("SIGUSR2", () => {
    if (existsSync(path.join(directory, "collect"))) {
      v8.setFlagsFromString("--expose-gc");
      vm.runInNewContext("gc")();
    }
    const now = sample();
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_used_size]),
    );
    // Written aside, then renamed: the bench reads the file as soon as it exists.
    const file = path.join(directory, `${process.pid}.json`);
    writeFileSync(`${file}.partial`, JSON.stringify({ now, peaks, spaces }));
    renameSync(`${file}.partial`, file);
    peaks = fresh();
  });
}
