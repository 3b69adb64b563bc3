// The Worker that owns view writes: its own SQLite connection and a ViewStore, so that the request thread
// never waits on the disk.
import { openSqlite } from "../db/connection.ts";
import type { ViewBatch } from "./view-batch.ts";
import { ViewStore } from "./view-store.ts";

declare const self: Worker;

type Message = { type: "open"; dbPath: string } | { type: "batch"; id: number; views: ViewBatch | null; fold: boolean } | { type: "close" };

/** With no batch for this long, the writer folds the rollups in: quiet traffic shows on the dashboard at once. */
const IDLE_FOLD_MS = 200;

let sqlite: ReturnType<typeof openSqlite> | null = null;
let store: ViewStore | null = null;
let idleFold: ReturnType<typeof setTimeout> | null = null;

function write(views: ViewBatch | null, fold: boolean) {
  if (idleFold) clearTimeout(idleFold);
  idleFold = null;
  store!.write(views, fold);
  if (store!.behind) idleFold = setTimeout(foldNow, IDLE_FOLD_MS);
}

function foldNow() {
  try {
    write(null, true);
  } catch (error) {
    // The rows are stored; the rollups catch up at the next fold, or at the next start.
    console.error(`view rollups were not updated: ${String(error)}`);
  }
}

self.onmessage = (event: MessageEvent<Message>) => {
  const message = event.data;
  if (message.type === "open") {
    sqlite = openSqlite(message.dbPath);
    // The store checks each batch's links once; per-row foreign key checks would double the cost.
    sqlite.run("PRAGMA foreign_keys = OFF");
    store = new ViewStore(sqlite);
    self.postMessage({ type: "ready" });
  } else if (message.type === "batch") {
    try {
      write(message.views, message.fold);
      self.postMessage({ type: "committed", id: message.id });
    } catch (error) {
      self.postMessage({ type: "failed", id: message.id, error: String(error) });
    }
  } else if (message.type === "close") {
    if (idleFold) clearTimeout(idleFold);
    sqlite?.close();
    self.postMessage({ type: "closed" });
  }
};
