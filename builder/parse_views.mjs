// Run by builder/views.py: parse each JavaScript file named on the command line with esbuild's
// transform API (esbuild is already the build's bundler), as the ES module the browser loads.
// argv[2]: esbuild's package folder; argv[3...]: files. stdout: JSON [{file, line, column, text}]
// for the first error of each file that does not parse; column is 1-based, as editors count.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const esbuild = createRequire(import.meta.url)(resolve(process.argv[2]));
const problems = [];
for (const file of process.argv.slice(3)) {
  try {
    await esbuild.transform(readFileSync(file, "utf8"), { loader: "js", format: "esm", sourcefile: file, logLevel: "silent" });
  } catch (err) {
    const first = (err.errors || [])[0];
    const at = first?.location;
    problems.push({ file, line: at?.line ?? null, column: at ? at.column + 1 : null, text: first?.text ?? String(err) });
  }
}
process.stdout.write(JSON.stringify(problems));
