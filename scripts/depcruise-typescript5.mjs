// dependency-cruiser parses TypeScript with TypeScript's compiler API, which TypeScript 7 (the project's type
// checker) no longer ships; this preload hands it TypeScript 5's, installed under the alias `typescript5`. It reads
// the version with require() and loads the API with import(), so both resolutions are redirected.
import Module, { register } from "node:module";

const toTypescript5 = (specifier) => specifier.replace(/^typescript(?=\/|$)/, "typescript5");

const hook = `export async function resolve(specifier, context, next) {
  return next(specifier.replace(/^typescript(?=\\/|$)/, "typescript5"), context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, toTypescript5(request), ...rest);
};
