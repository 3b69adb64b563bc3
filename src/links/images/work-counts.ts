// What the limits on image work turned away or ended (decision 0043), counted for /metrics and logged as a warning
// on the request thread, where /metrics is served and the budget kept; an app worker's go there through the relay
// it is built with (src/app.worker.ts). A warning names the limit only: nothing of the image or who sent it.

/** `queue-full`: a job turned away (503) with IMAGE_QUEUE jobs waiting; `deadline`: a job ended by IMAGE_DEADLINE_MS; `jpeg-scans`: a JPEG refused for its scans. */
export type ImageWorkEvent = "queue-full" | "deadline" | "jpeg-scans";

const WARNINGS: Record<ImageWorkEvent, string> = {
  "queue-full": "an image job was turned away: the image queue is full (IMAGE_QUEUE)",
  deadline: "an image job was ended by the decode deadline (IMAGE_DEADLINE_MS) and its Worker stopped",
  "jpeg-scans": "a JPEG was refused for having too many scans",
};

export class ImageWorkCounts {
  readonly counts: Record<ImageWorkEvent, number> = { "queue-full": 0, deadline: 0, "jpeg-scans": 0 };

  constructor(
    private readonly warn: (message: string) => void,
    private readonly relay: ((event: ImageWorkEvent) => void) | null,
  ) {}

  count(event: ImageWorkEvent): void {
    if (this.relay) return this.relay(event);
    this.counts[event]++;
    this.warn(WARNINGS[event]);
  }
}
