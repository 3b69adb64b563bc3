/**
 * The address of a Worker module under src/. Inside a compiled binary (`npm run build` lists each worker as an
 * entry point) modules live under /$bunfs/root and a worker is found by its path from the project root.
 */
export function workerEntry(pathFromSrc: string): string {
  return import.meta.url.includes("$bunfs")
    ? `./src/${pathFromSrc}`
    : new URL(`./${pathFromSrc}`, import.meta.url).href;
}
