// Rules for user-supplied text shared by the API and the islands (no server imports: it ships to browsers).

/**
 * Text without U+0000: PostgreSQL text cannot hold one (the write would fail with a 500), and no name, title or
 * URL needs one; refused alike on SQLite.
 */
export const WITHOUT_NUL = /^[^\u0000]*$/;
