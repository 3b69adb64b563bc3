// The Prometheus metrics of one server (request thread). /go is counted by plain increments held by the objects
// that answer it (GoCounts, LinkCache, ViewRecorder); the values are read here only when /metrics is scraped,
// so that the hot path pays no label lookup and no clock read (docs/decisions/0012). Other requests are
// measured around the worker hop, where a histogram observation is small beside the hop itself.
import { timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { PREVIEW_PLATFORMS } from "../go/classify.ts";
import type { GoCounts } from "../go/go-answer.ts";
import type { LinkCache } from "../link-cache/link-cache.ts";
import type { ViewRecorder } from "../views/view-recorder.ts";
import { registerSafetyMetrics, type SafetySources } from "./safety-metrics.ts";
import type { DeliveryOutcome } from "../webhooks/deliverer.ts";
import type { PixelBudget } from "../links/images/pixel-budget.ts";
import type { ImageWorkCounts } from "../links/images/work-counts.ts";

export type MetricSources = {
  go: GoCounts;
  cache: LinkCache;
  views: ViewRecorder;
  /** Requests the app workers hold right now. */
  appInFlight: () => number;
  /** PostgreSQL: the connections each pool (this thread's, each worker's) may open. */
  databasePoolMax: number | null;
  safety: SafetySources;
  /** This node's delivery attempts by outcome, and the outbox (all nodes') as the database holds it. */
  webhooks: {
    outcomes: Readonly<Record<DeliveryOutcome, number>>;
    queue: () => Promise<{ pending: number; oldestPendingAgeSeconds: number }>;
  };
  /** The process's image budget (this thread's) and what its limits refused or ended (decision 0043). */
  images: { budget: Pick<PixelBudget, "queued" | "pixelsInUse"> | null; work: ImageWorkCounts };
};

/** A counter whose value is read from `read` at scrape time. */
function readCounter(registry: client.Registry, name: string, help: string, read: () => number) {
  return new client.Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function readGauge(registry: client.Registry, name: string, help: string, read: () => number) {
  return new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

export class ServerMetrics {
  private readonly registry = new client.Registry();
  private readonly requests: client.Counter<"method" | "route" | "status">;
  private readonly latency: client.Histogram<"method" | "route" | "status">;

  constructor(sources: MetricSources) {
    const registry = this.registry;
    client.collectDefaultMetrics({ register: registry });
    this.requests = new client.Counter({
      name: "linkprev_http_requests_total",
      help: "Requests other than /go, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    });
    this.latency = new client.Histogram({
      name: "linkprev_http_request_duration_seconds",
      help: "Latency of requests other than /go, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const { go, cache, views } = sources;
    new client.Counter({
      name: "linkprev_go_responses_total",
      help: "/go answers by kind (redirect, preview, not_found, gone), previews by platform",
      labelNames: ["kind", "platform"],
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ kind: "redirect" }, go.redirects);
        this.inc({ kind: "not_found" }, go.notFound);
        this.inc({ kind: "gone" }, go.gone);
        PREVIEW_PLATFORMS.forEach((platform, index) => this.inc({ kind: "preview", platform }, go.previews[index]!));
      },
    });
    readCounter(
      registry,
      "linkprev_link_cache_hits_total",
      "/go lookups answered from the link cache",
      () => cache.hits,
    );
    readCounter(registry, "linkprev_link_cache_misses_total", "/go lookups that read the database", () => cache.misses);
    readGauge(registry, "linkprev_link_cache_entries", "Short addresses held by the link cache", () => cache.size);
    readCounter(
      registry,
      "linkprev_link_cache_unknown_reads_total",
      "Database reads that found no link at the address",
      () => cache.unknownReads,
    );
    readCounter(
      registry,
      "linkprev_link_cache_filtered_total",
      "Unknown addresses answered by the address filter without a database read",
      () => cache.filtered,
    );
    readCounter(
      registry,
      "linkprev_link_cache_evictions_total",
      "Live links pushed out of the link cache by its memory budget",
      () => cache.evictions,
    );
    readGauge(
      registry,
      "linkprev_link_cache_bytes",
      "Memory charged to the link cache (LINK_CACHE_MB is its bound)",
      () => cache.bytes,
    );
    readGauge(
      registry,
      "linkprev_link_cache_filling",
      "1 while the link cache is being filled at start, most viewed links first",
      () => (cache.filling ? 1 : 0),
    );
    readGauge(
      registry,
      "linkprev_link_cache_filter_bytes",
      "Memory of the link cache's filter of existing addresses",
      () => cache.filterBytes,
    );
    readGauge(registry, "linkprev_views_buffered", "Views waiting in memory for the writer", () => views.waiting);
    readCounter(
      registry,
      "linkprev_views_recorded_total",
      "Views counted by /go",
      () => views.totals.handedOver + views.waiting,
    );
    readCounter(registry, "linkprev_views_written_total", "Views the writer stored", () => views.totals.written);
    readCounter(
      registry,
      "linkprev_views_dropped_total",
      "Views lost: the view spool full (VIEW_SPOOL_MAX_BYTES), or recorded while stopping",
      () => views.totals.dropped,
    );
    const batchSize = new client.Histogram({
      name: "linkprev_view_batch_size",
      help: "Views per batch the writer stored",
      buckets: [1, 10, 100, 1000, 10_000, 100_000],
      registers: [registry],
    });
    const batchSeconds = new client.Histogram({
      name: "linkprev_view_batch_duration_seconds",
      help: "The writer's time per stored batch",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    });
    views.totals.onBatch = (size, seconds) => {
      batchSize.observe(size);
      batchSeconds.observe(seconds);
    };
    registerSafetyMetrics(registry, sources.safety);
    readGauge(
      registry,
      "linkprev_app_requests_in_flight",
      "Requests the app workers are answering",
      sources.appInFlight,
    );
    const { outcomes, queue } = sources.webhooks;
    new client.Counter({
      name: "linkprev_webhook_deliveries_total",
      help: "Webhook delivery attempts by this node, by outcome (delivered, retrying, failed)",
      labelNames: ["outcome"],
      registers: [registry],
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(outcomes)) this.inc({ outcome }, count);
      },
    });
    // Read once per scrape, for both gauges.
    let queueRead: Promise<{ pending: number; oldestPendingAgeSeconds: number }> | null = null;
    const queueNow = () => (queueRead ??= queue().finally(() => setTimeout(() => (queueRead = null), 0)));
    new client.Gauge({
      name: "linkprev_webhook_queue_depth",
      help: "Webhook deliveries waiting to be sent (or retried)",
      registers: [registry],
      async collect() {
        this.set((await queueNow()).pending);
      },
    });
    new client.Gauge({
      name: "linkprev_webhook_oldest_pending_age_seconds",
      help: "How long the oldest waiting webhook delivery has waited",
      registers: [registry],
      async collect() {
        this.set((await queueNow()).oldestPendingAgeSeconds);
      },
    });
    const { budget, work } = sources.images;
    if (budget) {
      readGauge(
        registry,
        "linkprev_image_jobs_waiting",
        "Image jobs waiting for their share of the pixel budget (IMAGE_QUEUE is their bound)",
        () => budget.queued,
      );
      readGauge(
        registry,
        "linkprev_image_pixels_in_use",
        "Pixels of the image budget held by running jobs (IMAGE_PIXEL_BUDGET_MP is the bound)",
        () => budget.pixelsInUse,
      );
    }
    readCounter(
      registry,
      "linkprev_image_jobs_refused_total",
      "Image jobs turned away (503) because the image queue was full",
      () => work.counts["queue-full"],
    );
    readCounter(
      registry,
      "linkprev_image_jobs_timed_out_total",
      "Image jobs ended by the decode deadline (IMAGE_DEADLINE_MS), their Worker stopped",
      () => work.counts.deadline,
    );
    readCounter(
      registry,
      "linkprev_image_jpeg_scans_refused_total",
      "JPEGs refused before decoding for having too many scans",
      () => work.counts["jpeg-scans"],
    );
    if (sources.databasePoolMax !== null) {
      readGauge(
        registry,
        "linkprev_db_pool_max_connections",
        "PostgreSQL connections each pool (request thread, each app worker) may open",
        () => sources.databasePoolMax!,
      );
    }
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  async response(): Promise<Response> {
    return new Response(await this.registry.metrics(), {
      headers: { "Content-Type": this.registry.contentType, "Cache-Control": "no-store" },
    });
  }
}

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(request: Request, token: string): boolean {
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  // Lengths differ: compare with itself anyway, so that the time does not tell how long the token is.
  return (
    timingSafeEqual(given.length === expected.length ? given : expected, expected) && given.length === expected.length
  );
}

/** GET /metrics on the main listener, for a scraper holding METRICS_TOKEN. */
export function metricsRoutes(
  metrics: ServerMetrics,
  token: string,
): Record<string, { GET: (request: Request) => Response | Promise<Response> }> {
  return {
    "/metrics": {
      GET: (request: Request) =>
        bearerMatches(request, token)
          ? metrics.response()
          : Response.json(
              { message: "A valid metrics token is required" },
              { status: 401, headers: { "WWW-Authenticate": "Bearer" } },
            ),
    },
  };
}
