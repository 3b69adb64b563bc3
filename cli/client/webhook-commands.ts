// linkprev webhooks add|list|pause|resume|test|deliveries|resend|remove, over /api/webhooks.
import type { Command } from "commander";
import { ok, type Schemas } from "../../packages/sdk/src/index.ts";
import { WEBHOOK_EVENT_TYPES } from "../../src/webhooks/wire.ts";
import { api, usageError } from "./http.ts";
import { example, json, out, table } from "./output.ts";
import { loadSettings } from "./settings.ts";

const id = (text: string) => {
  if (!/^\d+$/.test(text)) throw usageError(`An endpoint or delivery id is a number; got "${text}"`);
  return Number(text);
};

export function registerWebhookCommands(program: Command): void {
  const webhooks = program
    .command("webhooks")
    .description("Webhook endpoints: signed events about your links, sent to your URL");

  webhooks
    .command("add")
    .description("Add an endpoint; prints its secret (shown once) to verify deliveries with")
    .argument("<url>", "https URL that receives the events")
    .requiredOption("--events <types>", `comma-separated: ${WEBHOOK_EVENT_TYPES.join(", ")}`)
    .option("--description <text>", "what the endpoint is for")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      example("linkprev webhooks add https://hooks.example.com/linkprev --events link.created,link.clicked"),
    )
    .action(async (url: string, options: { events: string; description?: string; json?: boolean }) => {
      const events = options.events
        .split(",")
        .map((event) => event.trim())
        .filter(Boolean) as Schemas["addWebhookBody"]["events"]; // the server names an unknown one
      const endpoint = await api(loadSettings(), (client) =>
        ok(client.POST("/api/webhooks", { body: { url, events, description: options.description ?? "" } })),
      );
      if (options.json) return void json(endpoint);
      out(`Endpoint ${endpoint.id}: ${endpoint.url} (${endpoint.events.join(", ")})`);
      out(`Secret (shown once; verify the webhook-signature header with it): ${endpoint.secret}`);
    });

  webhooks
    .command("list")
    .description("Your endpoints")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev webhooks list"))
    .action(async (options: { json?: boolean }) => {
      const endpoints = await api(loadSettings(), (client) => ok(client.GET("/api/webhooks")));
      if (options.json) return void json(endpoints);
      if (endpoints.length === 0)
        return void out("No webhook endpoints. Add one with: linkprev webhooks add <url> --events link.created");
      out(
        table([
          ["ID", "URL", "EVENTS", "STATE"],
          ...endpoints.map((e) => [
            String(e.id),
            e.url,
            e.events.join(","),
            !e.enabled ? `disabled: ${e.disabledReason ?? ""}` : e.paused ? "paused" : "enabled",
          ]),
        ]),
      );
    });

  // PATCH paused: a paused endpoint's events are recorded and wait, unsent, until it is resumed.
  for (const [name, paused, description] of [
    ["pause", true, "Hold an endpoint's deliveries: events are recorded and wait, unsent, until it is resumed"],
    ["resume", false, "Send a paused endpoint's deliveries again, the events that waited included"],
  ] as const) {
    webhooks
      .command(name)
      .description(description)
      .argument("<id>", "the endpoint's id")
      .addHelpText("after", example(`linkprev webhooks ${name} 3`))
      .action(async (endpointId: string) => {
        const path = { id: id(endpointId) };
        const endpoint = await api(loadSettings(), (client) =>
          ok(client.PATCH("/api/webhooks/{id}", { params: { path }, body: { paused } })),
        );
        out(
          paused
            ? `Paused endpoint ${endpoint.id}; its events wait until: linkprev webhooks resume ${endpoint.id}`
            : `Resumed endpoint ${endpoint.id}`,
        );
      });
  }

  webhooks
    .command("test")
    .description("Send a webhook.test event to an endpoint")
    .argument("<id>", "the endpoint's id")
    .addHelpText("after", example("linkprev webhooks test 3"))
    .action(async (endpointId: string) => {
      const path = { id: id(endpointId) };
      const delivery = await api(loadSettings(), (client) =>
        ok(client.POST("/api/webhooks/{id}/test", { params: { path } })),
      );
      out(`Queued ${delivery.eventId}; see it with: linkprev webhooks deliveries ${endpointId}`);
    });

  webhooks
    .command("deliveries")
    .description("An endpoint's latest deliveries, newest first")
    .argument("<id>", "the endpoint's id")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev webhooks deliveries 3"))
    .action(async (endpointId: string, options: { json?: boolean }) => {
      const path = { id: id(endpointId) };
      const deliveries = await api(loadSettings(), (client) =>
        ok(client.GET("/api/webhooks/{id}/deliveries", { params: { path } })),
      );
      if (options.json) return void json(deliveries);
      const rows = deliveries.map((d) => [
        String(d.id),
        d.eventId,
        d.type,
        d.status,
        String(d.attempt),
        d.statusCode === null ? "-" : String(d.statusCode),
        d.durationMs === null ? "-" : `${d.durationMs} ms`,
        d.nextAttemptAt ?? "-",
      ]);
      out(table([["ID", "EVENT", "TYPE", "STATUS", "ATTEMPT", "CODE", "TIME", "NEXT ATTEMPT"], ...rows]));
    });

  webhooks
    .command("resend")
    .description("Send a delivery again, with the same webhook-id")
    .argument("<id>", "the endpoint's id")
    .argument("<deliveryId>", "the delivery's id (from linkprev webhooks deliveries)")
    .addHelpText("after", example("linkprev webhooks resend 3 41"))
    .action(async (endpointId: string, deliveryId: string) => {
      const path = { id: id(endpointId), deliveryId: id(deliveryId) };
      const delivery = await api(loadSettings(), (client) =>
        ok(client.POST("/api/webhooks/{id}/deliveries/{deliveryId}/resend", { params: { path } })),
      );
      out(`Queued ${delivery.eventId} again`);
    });

  webhooks
    .command("remove")
    .description("Remove an endpoint and its deliveries")
    .argument("<id>", "the endpoint's id")
    .addHelpText("after", example("linkprev webhooks remove 3"))
    .action(async (endpointId: string) => {
      const path = { id: id(endpointId) };
      await api(loadSettings(), (client) => client.DELETE("/api/webhooks/{id}", { params: { path } }));
      out(`Removed endpoint ${endpointId}`);
    });
}
