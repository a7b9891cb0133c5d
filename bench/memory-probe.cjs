// Loaded into each process of the served burst's server (bench/served-burst.ts) with NODE_OPTIONS=--require, so
// the bench can read the V8 heap beside the RSS it reads from /proc, without code in the app. Every 100 ms it
// notes the peak of process.memoryUsage() (heap used, heap total, external, array buffers, RSS); on SIGUSR2 it
// writes the current figures and the peaks since the last SIGUSR2 to <GLASSBOX_BENCH_MEMORY_DIR>/<pid>.json and
// starts the peaks again. Nothing else: no collection is forced, the server's memory behaves as it would.
const { writeFileSync } = require("node:fs");
const path = require("node:path");

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
    const now = sample();
    writeFileSync(path.join(directory, `${process.pid}.json`), JSON.stringify({ now, peaks }));
    peaks = fresh();
  });
}
