// A file the API hands over to be saved (the account's and a workspace's exports, the links' and the audit log's
// CSV): named for the download, and never kept by a cache, since it holds the account's data.
export const attachment = (body: string, contentType: string, fileName: string) =>
  new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
