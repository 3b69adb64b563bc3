/** The database did not answer at start-up: one line for the operator, never a password. */
export class DatabaseUnavailable extends Error {}
