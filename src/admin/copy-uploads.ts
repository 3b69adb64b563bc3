// copy-to-postgres's move of the uploaded images from DATA_DIR/uploads into the configured store (S3 or the
// database's uploads table; with the dir store they stay where they are).
import type { SQL } from "bun";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { S3Settings } from "../config/config.ts";
import { S3Uploads, STORED_NAME } from "../links/images/backends.ts";
import { countOf } from "./copy-tables.ts";

/** The uploads LinkPrev named, and whatever else lies in the folder (not copied). */
export function uploadedFiles(dir: string): { names: string[]; skipped: string[] } {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return { names: [], skipped: [] };
  }
  return {
    names: entries.filter((name) => STORED_NAME.test(name)).sort(),
    skipped: entries.filter((name) => !STORED_NAME.test(name)).sort(),
  };
}

/** Puts every named upload into the bucket (same names: a rerun overwrites them). */
export async function copyUploadsToS3(settings: S3Settings, dir: string, names: string[]): Promise<void> {
  const store = new S3Uploads(settings);
  for (const name of names) await store.put(name, await Bun.file(join(dir, name)).bytes());
}

/** Inserts every named upload into the uploads table, in the copy's transaction, and checks they all arrived. */
export async function copyUploadsToDatabase(tx: SQL, dir: string, names: string[]): Promise<void> {
  for (const name of names) {
    await tx`INSERT INTO uploads (name, content_type, bytes) VALUES (${name}, 'image/jpeg', ${await Bun.file(join(dir, name)).bytes()})`;
  }
}

/** Every image arrived, or nothing is committed. */
export async function checkUploadsCopied(tx: SQL, names: string[]): Promise<void> {
  if ((await countOf(tx, "uploads")) !== names.length)
    throw new Error("uploads: not every image arrived; nothing was copied");
}
