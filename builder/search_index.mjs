// Run by builder/search.py: index the chapters' HTML with Pagefind's Node API, in memory.
// argv[2]: Pagefind's lib/index.js; stdin: JSON [{url, content}]; stdout: JSON {errors, files:
// [{path, base64}]}. The build adds the files to the site itself (no pass over dist/ afterwards),
// so the offline precache and the reproducibility check see them like every other file.
import { pathToFileURL } from "node:url";

const pagefind = await import(pathToFileURL(process.argv[2]).href);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const errors = [];
const files = [];
try {
  const created = await pagefind.createIndex({ forceLanguage: "en" });
  errors.push(...created.errors);
  if (created.index) {
    for (const page of JSON.parse(input)) {
      const added = await created.index.addHTMLFile(page);
      errors.push(...added.errors.map((e) => `${page.url}: ${e}`));
    }
    const out = await created.index.getFiles();
    errors.push(...out.errors);
    for (const f of out.files) files.push({ path: f.path, base64: Buffer.from(f.content).toString("base64") });
  }
} finally {
  await pagefind.close();
}
process.stdout.write(JSON.stringify({ errors, files }));
