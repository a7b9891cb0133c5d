// Preloaded into each server process with BENCH_CPU_PROF_SERVER=<dir> (bench/served-server.ts): a CPU profile of
// the process's whole life, written as <dir>/<pid>.cpuprofile when it exits (NODE_OPTIONS may not carry --cpu-prof).
const inspector = require("node:inspector");
const fs = require("node:fs");
const path = require("node:path");

const directory = process.env.GLASSBOX_BENCH_PROFILE_DIR;
if (directory) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  process.on("exit", () => {
    // The in-thread session answers synchronously, so the profile is written before the process ends.
    session.post("Profiler.stop", (error, result) => {
      if (!error)
        fs.writeFileSync(path.join(directory, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
