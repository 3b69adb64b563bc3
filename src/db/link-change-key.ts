/** The key under which a link change is announced (ports.ts ChangeBus) and a link cache keeps the link. */
export const linkChangeKey = (userSlug: string, linkSlug: string) => `${userSlug}/${linkSlug}`;

/** The key that announces a change to every link under a user slug (a deleted account's, for one). */
export const userChangeKey = (userSlug: string) => `${userSlug}/`;
