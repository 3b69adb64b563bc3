// What the domain API answers, as zod schemas (the OpenAPI document, the CLI and the Domains page use them).
import { z } from "zod";
import { AASA_PATH, APP_LINK_DOCUMENT_MAX_BYTES, ASSET_LINKS_PATH, DOMAIN_STATUSES } from "./model.ts";

// App-link documents (docs/decisions/0060): Apple's app-site-association (universal links) and Android's asset links
// (app links), taken as the owner's text and stored as given once it parses as JSON of the expected shape.
/** An app's id in Apple's documents: the team id (10 letters or digits), a dot, the bundle id. */
const appId = z.string().regex(/^[A-Z0-9]{10}\.[A-Za-z0-9.-]+$/, "must be TEAMID.bundle.id");

/** iOS 13 and later: `appIDs` with `components` (each a URL pattern by `/`, `?`, `#`, perhaps `exclude`). */
const ComponentsDetail = z.looseObject({
  appIDs: z.array(appId).min(1, "appIDs must name an app"),
  components: z.array(z.looseObject({}), "components must be a list of objects"),
});
/** Earlier iOS: one `appID` with `paths`. */
const PathsDetail = z.looseObject({
  appID: appId,
  paths: z.array(z.string(), "paths must be a list of strings"),
});

/** `applinks.details`: each either shape (one file may carry both, for old and new iOS). */
export const AppleAppSiteAssociationShape = z.looseObject({
  applinks: z.looseObject(
    {
      apps: z.array(z.string()).optional(),
      details: z.array(
        z.union([ComponentsDetail, PathsDetail], "each detail needs appIDs with components, or appID with paths"),
        "applinks.details must be a list",
      ),
    },
    "applinks is required",
  ),
});

/** An upper-case SHA-256 fingerprint, byte pairs joined by colons, as `keytool` prints it. */
const fingerprint = z
  .string()
  .regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, "must be a SHA-256 fingerprint (32 upper-case hex pairs with colons)");

export const AssetLinksShape = z
  .array(
    z.looseObject({
      relation: z.array(z.string().min(1)).min(1, "relation must name at least one relation"),
      target: z.looseObject({
        namespace: z.literal("android_app", "namespace must be android_app"),
        package_name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, "must be a package name"),
        sha256_cert_fingerprints: z.array(fingerprint).min(1, "sha256_cert_fingerprints must hold a fingerprint"),
      }),
    }),
    "must be a list of statements",
  )
  .min(1, "must hold at least one statement");

const utf8 = new TextEncoder();

/** The document's text as the API takes it: at most the limit, JSON, of `shape`; issues name the place inside. */
function documentText(shape: z.ZodType, what: string) {
  return z
    .string()
    .superRefine((text, ctx) => {
      if (utf8.encode(text).byteLength > APP_LINK_DOCUMENT_MAX_BYTES) {
        ctx.addIssue({ code: "custom", message: `must be at most ${APP_LINK_DOCUMENT_MAX_BYTES / 1024} KB` });
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return;
      }
      const checked = shape.safeParse(value);
      if (checked.success) return;
      const issue = checked.error.issues[0]!;
      const at = issue.path.length > 0 ? ` (at ${issue.path.map(String).join(".")})` : "";
      ctx.addIssue({ code: "custom", message: `${issue.message}${at}` });
    })
    .nullable()
    .optional()
    .describe(`${what}, as JSON text (at most 128 KB), served byte-exact as application/json; null removes it`);
}

export const AppleAppSiteAssociationText = documentText(
  AppleAppSiteAssociationShape,
  `Apple app-site-association served at ${AASA_PATH}: {"applinks":{"details":[…]}} with appIDs and components (or appID and paths)`,
);
export const AssetLinksText = documentText(
  AssetLinksShape,
  `Android asset links served at ${ASSET_LINKS_PATH}: [{"relation":[…],"target":{"namespace":"android_app","package_name":…,"sha256_cert_fingerprints":[…]}}]`,
);

const timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 date and time");

export const DomainSchema = z
  .object({
    id: z.number().int(),
    hostname: z.string().describe("Lower-case, IDN as punycode"),
    status: z
      .enum(DOMAIN_STATUSES)
      .describe(
        "pending: not yet proven; verified: served; failing: records gone, still served; invalid: failing for 7 days, not served",
      ),
    reason: z.string().nullable().describe("Why the last check did not verify it"),
    lastCheckedAt: timestamp.nullable(),
    rootUrl: z.string().nullable().describe("Where / on the domain goes (null: a small page)"),
    notFoundUrl: z.string().nullable().describe("Where an unknown address on the domain goes (null: the 404 page)"),
    appleAppSiteAssociation: z
      .string()
      .nullable()
      .describe("Served byte-exact at /.well-known/apple-app-site-association on the domain (null: a 404 there)"),
    assetLinks: z
      .string()
      .nullable()
      .describe("Served byte-exact at /.well-known/assetlinks.json on the domain (null: a 404 there)"),
    verification: z.object({ txtName: z.string(), txtValue: z.string() }),
    records: z
      .array(z.object({ type: z.enum(["TXT", "CNAME", "A", "AAAA"]), name: z.string(), value: z.string() }))
      .describe("Every record to publish"),
    links: z.number().int().describe("Live links on this domain"),
    createdAt: timestamp,
  })
  .meta({ id: "Domain" });
export type DomainJson = z.infer<typeof DomainSchema>;

export const DomainListSchema = z.object({ domains: z.array(DomainSchema) }).meta({ id: "DomainList" });

export const AddDomainInput = z.object({
  hostname: z.string("hostname is required").min(1, "hostname is required").max(300),
});
const optionalUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2048)
  .nullable()
  .optional();
export const UpdateDomainInput = z.object({
  rootUrl: optionalUrl,
  notFoundUrl: optionalUrl,
  appleAppSiteAssociation: AppleAppSiteAssociationText,
  assetLinks: AssetLinksText,
});
