// Keeps each link response schema (src/links/wire.ts) and the service that produces it the same shape: a service
// that gains, loses or changes a field without its schema fails `tsc` (src/api-docs/json.ts).
import { sameShape, type SameShape } from "../api-docs/json.ts";
import type { pageMetadata } from "./metadata.ts";
import type { lintLink } from "./lint.ts";
import type { linkPlatforms } from "./platforms.ts";
import type { checkSlugAvailability, getLinkBySlug } from "./queries.ts";
import type { linkStats, linkViews } from "./stats.ts";
import type { issueVersion } from "./versions.ts";
import type {
  LinkPlatformsSchema,
  LinkSchema,
  LinkStatsSchema,
  LinkVersionSchema,
  LinkViewsSchema,
  LintResultSchema,
  PageMetadataSchema,
  SlugAvailabilitySchema,
} from "./wire.ts";

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
sameShape<SameShape<Returned<typeof getLinkBySlug>, typeof LinkSchema>>(true);
sameShape<SameShape<Returned<typeof linkStats>, typeof LinkStatsSchema>>(true);
sameShape<SameShape<Returned<typeof checkSlugAvailability>, typeof SlugAvailabilitySchema>>(true);
sameShape<SameShape<Returned<typeof lintLink>, typeof LintResultSchema>>(true);
sameShape<SameShape<Returned<typeof linkViews>, typeof LinkViewsSchema>>(true);
sameShape<SameShape<Returned<typeof linkPlatforms>, typeof LinkPlatformsSchema>>(true);
sameShape<SameShape<Returned<typeof issueVersion>, typeof LinkVersionSchema>>(true);
sameShape<SameShape<Returned<typeof pageMetadata>, typeof PageMetadataSchema>>(true);
