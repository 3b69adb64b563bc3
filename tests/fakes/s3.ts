// A fake S3-compatible object store speaking the path-style REST API that Bun.S3Client uses
// (`<endpoint>/<bucket>/<key>`): PUT, GET, HEAD and DELETE of objects, and ListObjectsV2
// (`GET /<bucket>/?list-type=2`, XML). Every request must carry a valid AWS Signature V4 made with the
// configured key pair, checked in full as S3 does (Bun signs host, x-amz-content-sha256 and x-amz-date, with
// an UNSIGNED-PAYLOAD body hash); anything else is refused with S3's XML errors.
import { createHash, createHmac } from "node:crypto";
import { serveOnLoopback } from "./loopback.ts";

export type FakeObject = { bytes: Uint8Array<ArrayBuffer>; contentType: string; lastModified: Date };

export type FakeS3 = {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** UPLOADS_STORE=s3 and the S3_* settings pointing a LinkPrev server here. */
  env: Record<string, string>;
  /** The bucket's objects by key. */
  objects: Map<string, FakeObject>;
  /** "METHOD /path?query" of every request that passed the signature check. */
  requests: string[];
  /** Requests refused (bad or missing signature), with S3's error code. */
  refused: Array<{ request: string; code: string }>;
  stop: () => void;
};

const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
/** RFC 3986 encoding, as SigV4 wants it. */
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const escapeXml = (value: string) => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const etagOf = (bytes: Uint8Array) => `"${createHash("md5").update(bytes).digest("hex")}"`;

function s3Error(status: number, code: string, message: string): Response {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`;
  return new Response(body, { status, headers: { "content-type": "application/xml" } });
}

/** null when the request is signed with `accessKeyId`/`secretAccessKey`; else S3's error code. */
function checkSignature(
  request: Request,
  url: URL,
  accessKeyId: string,
  secretAccessKey: string,
  region: string,
): string | null {
  const authorization = request.headers.get("authorization");
  if (!authorization) return "AccessDenied";
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!m) return "AuthorizationHeaderMalformed";
  const [, keyId, date, scopeRegion, signedHeaders, signature] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (keyId !== accessKeyId) return "InvalidAccessKeyId";
  if (scopeRegion !== region) return "AuthorizationHeaderMalformed";
  const amzDate = request.headers.get("x-amz-date") ?? "";
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || !amzDate.startsWith(date)) return "AccessDenied";
  const signedAt = Date.UTC(
    Number(at[1]),
    Number(at[2]) - 1,
    Number(at[3]),
    Number(at[4]),
    Number(at[5]),
    Number(at[6]),
  );
  if (Math.abs(Date.now() - signedAt) > 15 * 60_000) return "RequestTimeTooSkewed";
  const headerNames = signedHeaders.split(";");
  if (!headerNames.includes("host")) return "AccessDenied";
  const payloadHash = request.headers.get("x-amz-content-sha256");
  if (!payloadHash) return "InvalidRequest";

  const query = [...url.searchParams]
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const headers = headerNames
    .map((name) => `${name}:${(request.headers.get(name) ?? "").trim().replace(/\s+/g, " ")}\n`)
    .join("");
  const canonicalRequest = [request.method, url.pathname, query, headers, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    scope,
    createHash("sha256").update(canonicalRequest).digest("hex"),
  ].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), "s3"), "aws4_request");
  return createHmac("sha256", signingKey).update(stringToSign).digest("hex") === signature
    ? null
    : "SignatureDoesNotMatch";
}

export function startFakeS3(
  options: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): FakeS3 {
  const bucket = options.bucket ?? "linkprev-uploads";
  const region = options.region ?? "eu-west-3";
  const accessKeyId = options.accessKeyId ?? "AKIAFAKELINKPREV";
  const secretAccessKey = options.secretAccessKey ?? "fake/secret+key";
  const objects = new Map<string, FakeObject>();
  const requests: string[] = [];
  const refused: FakeS3["refused"] = [];

  const objectHeaders = (object: FakeObject) => ({
    "content-type": object.contentType,
    "content-length": String(object.bytes.byteLength),
    etag: etagOf(object.bytes),
    "last-modified": object.lastModified.toUTCString(),
  });

  function listObjectsV2(url: URL): Response {
    const prefix = url.searchParams.get("prefix") ?? "";
    const maxKeys = Math.min(1000, Math.max(0, Number(url.searchParams.get("max-keys") ?? 1000) || 0));
    const startAfter = url.searchParams.get("start-after") ?? "";
    const token = url.searchParams.get("continuation-token");
    // The token is the last key of the previous page (S3's are opaque; clients only hand them back).
    const after = token !== null ? Buffer.from(token, "base64url").toString() : startAfter;
    const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page
      .map((key) => {
        const object = objects.get(key)!;
        return `<Contents><Key>${escapeXml(key)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${escapeXml(etagOf(object.bytes))}</ETag><Size>${object.bytes.byteLength}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join("");
    const next = truncated
      ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString("base64url")}</NextContinuationToken>`
      : "";
    const echoedToken = token !== null ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>` : "";
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${echoedToken}${next}${contents}</ListBucketResult>`;
    return new Response(body, { headers: { "content-type": "application/xml" } });
  }

  const loopback = serveOnLoopback(async (request) => {
    const url = new URL(request.url);
    const described = `${request.method} ${url.pathname}${url.search}`;
    const problem = checkSignature(request, url, accessKeyId, secretAccessKey, region);
    if (problem) {
      refused.push({ request: described, code: problem });
      return s3Error(403, problem, "The request signature we calculated does not match the signature you provided.");
    }
    requests.push(described);

    const [, bucketName, ...rest] = url.pathname.split("/");
    if (decodeURIComponent(bucketName ?? "") !== bucket)
      return s3Error(404, "NoSuchBucket", "The specified bucket does not exist");
    const key = decodeURIComponent(rest.join("/"));

    if (key === "") {
      if (request.method === "GET" && url.searchParams.get("list-type") === "2") return listObjectsV2(url);
      return s3Error(501, "NotImplemented", `${request.method} on the bucket is not implemented by the fake`);
    }
    switch (request.method) {
      case "PUT": {
        const bytes = new Uint8Array(await request.arrayBuffer());
        objects.set(key, {
          bytes,
          contentType: request.headers.get("content-type") ?? "application/octet-stream",
          lastModified: new Date(),
        });
        return new Response(null, { status: 200, headers: { etag: etagOf(bytes) } });
      }
      case "GET":
      case "HEAD": {
        const object = objects.get(key);
        if (!object)
          return request.method === "HEAD"
            ? new Response(null, { status: 404 })
            : s3Error(404, "NoSuchKey", "The specified key does not exist.");
        return new Response(request.method === "HEAD" ? null : object.bytes, { headers: objectHeaders(object) });
      }
      case "DELETE":
        // As S3: deleting a missing key succeeds.
        objects.delete(key);
        return new Response(null, { status: 204 });
      default:
        return s3Error(405, "MethodNotAllowed", `${request.method} is not allowed`);
    }
  });

  return {
    url: loopback.url,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    env: {
      UPLOADS_STORE: "s3",
      S3_ENDPOINT: loopback.url,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
    },
    objects,
    requests,
    refused,
    stop: () => loopback.stop(),
  };
}
