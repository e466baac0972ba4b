// Runs a Python script under real MicroPython (the WebAssembly port, npm package
// @micropython/micropython-webassembly-pyscript) with directories copied into its file system.
//   node run.mjs PATH/TO/micropython.mjs SCRIPT.py DIR [DIR ...]
// Each DIR's .py files (recursively) appear under /lib/<relative path>; stdout is the script's.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, script, ...dirs] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(modulePath).href);
const mp = await loadMicroPython({ stdout: (s) => process.stdout.write(s), linebuffer: false });

function ensureDir(path) {
  let at = "";
  for (const part of path.split("/").filter(Boolean)) {
    at += "/" + part;
    try { mp.FS.mkdir(at); } catch (e) { /* exists */ }
  }
}
function copy(root, dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) { copy(root, full); continue; }
    if (!name.endsWith(".py")) continue;
    const target = "/lib/" + relative(root, full).replaceAll("\\", "/");
    ensureDir(target.substring(0, target.lastIndexOf("/")));
    mp.FS.writeFile(target, readFileSync(full));
  }
}
ensureDir("/lib");
for (const d of dirs) copy(d, d);
try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (e) {
  process.stdout.write("\nMICROPYTHON-ERROR " + String(e.message || e) + "\n");
  process.exit(1);
}
