// Queries built once per database and shape, run with values. Building drizzle's SQL for a query costs more CPU
// than SQLite running it (a dashboard's lists and counts), so the hot reads are built with placeholders
// (sql.placeholder) and drizzle's `prepare()`, which both engines run with `execute(values)`.
import type { Db } from "./ports.ts";

/**
 * A function from (database, shape) to that shape's prepared query, built on first use. `shapeOf` names a shape
 * (e.g. "views, with a search"): keep the number of shapes small and fixed, never one per value.
 */
export function preparedPerShape<S, Q>(
  build: (db: Db, shape: S) => Q,
  shapeOf: (shape: S) => string,
): (db: Db, shape: S) => Q {
  const byDb = new WeakMap<Db, Map<string, Q>>();
  return (db, shape) => {
    let queries = byDb.get(db);
    if (!queries) byDb.set(db, (queries = new Map()));
    const name = shapeOf(shape);
    let query = queries.get(name);
    if (query === undefined) queries.set(name, (query = build(db, shape)));
    return query;
  };
}

/** A function from database to the one prepared query `build` makes for it (a query of a single shape). */
export function preparedOnce<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const perShape = preparedPerShape(
    (db, _shape: null) => build(db),
    () => "",
  );
  return (db) => perShape(db, null);
}
