-- Set by an operator (linkprev admin users trust): the new-account limits do not apply (src/safety/limits.ts).
ALTER TABLE `users` ADD `trusted_at` integer;
