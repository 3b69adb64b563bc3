// `npm run build`: one self-contained executable, dist/linkprev: server, CLI, migrations, workers, the built
// islands and CSS, and the image codecs, with the release id (git short sha) baked in.
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const git = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: root, stderr: "ignore" });
const release = process.env.RELEASE || (git.success ? git.stdout.toString().trim() : "dev");

const result = await Bun.build({
  entrypoints: [
    "cli/linkprev.ts",
    "src/app.worker.ts",
    "src/views/view-writer.worker.ts",
    "src/links/images/image.worker.ts",
    "src/webhooks/delivery.worker.ts",
  ].map((p) => join(root, p)),
  compile: { outfile: join(root, "dist/linkprev") },
  minify: true,
  // Production React on the server (STACK-NOTES: without it a compiled binary ran React's development build).
  define: { "process.env.NODE_ENV": '"production"', LINKPREV_BUILD_RELEASE: JSON.stringify(release) },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built dist/linkprev (release ${release})`);
