// UPLOADS_STORE=db: the `uploads` table (bytea), in the database every node already shares and backs up.
// Injected by the platform into links/images/backends.ts, whose UploadBackend this object is.
import { eq } from "drizzle-orm";
import type { UploadTable } from "../ports.ts";
import type { PgDb } from "./portable.ts";
import { uploads } from "./schema.ts";

const CONTENT_TYPE = "image/jpeg";

export class PgUploads implements UploadTable {
  readonly kind = "db";

  constructor(private readonly db: PgDb) {}

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.db.insert(uploads).values({ name, contentType: CONTENT_TYPE, bytes });
  }

  async get(name: string): Promise<Uint8Array<ArrayBuffer> | null> {
    const [row] = await this.db.select({ bytes: uploads.bytes }).from(uploads).where(eq(uploads.name, name)).limit(1);
    return row ? new Uint8Array(row.bytes) : null;
  }

  async delete(name: string): Promise<void> {
    await this.db.delete(uploads).where(eq(uploads.name, name));
  }

  async list(): Promise<Array<{ name: string; createdAt: number }>> {
    const rows = await this.db.select({ name: uploads.name, createdAt: uploads.createdAt }).from(uploads);
    return rows.map((row) => ({ name: row.name, createdAt: row.createdAt.getTime() }));
  }
}
