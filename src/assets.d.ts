// Files imported `with { type: "file" }` (a path, embedded in the binary) or `with { type: "text" }`.
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
