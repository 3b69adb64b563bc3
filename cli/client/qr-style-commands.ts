// linkprev qr-style get|set|logo|remove-logo: the workspace's default QR style and logo, over /api/qr-style
// (docs/decisions/0067). A style the server would refuse (it would not scan) is refused with its words.
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { ok, type Schemas } from "../../packages/sdk/src/index.ts";
import { api, multipart, usageError } from "./http.ts";
import { example, json, out, table } from "./output.ts";
import { loadSettings } from "./settings.ts";

type QrDefault = Schemas["QrDefault"];
type StyleOptions = {
  fg?: string;
  bg?: string;
  shape?: string;
  finder?: string;
  margin?: string;
  ecc?: string;
  inverted?: boolean;
  logo?: boolean;
  logoSize?: string;
  reset?: boolean;
  json?: boolean;
};

function show(answer: QrDefault, asJson?: boolean): void {
  if (asJson) return void json(answer);
  out(table([["FIELD", "VALUE"], ...Object.entries(answer.style).map(([key, value]) => [key, String(value)])]));
  out(`Logo: ${answer.logo ? `${answer.logo.width}×${answer.logo.height} px` : "none (linkprev qr-style logo FILE)"}`);
}

export function registerQrStyleCommands(program: Command): void {
  const qrStyle = program
    .command("qr-style")
    .description(
      "Your default QR code style and logo: what `links qr` and the editor draw for links without their own",
    );

  qrStyle
    .command("get")
    .description("Show the default style and whether a logo is uploaded")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) =>
      show(await api(loadSettings(), (client) => ok(client.GET("/api/qr-style"))), options.json),
    );

  qrStyle
    .command("set")
    .description("Change fields of the default style (the others stay); one that would not scan is refused with why")
    .option("--fg <colour>", "dark modules, #rrggbb")
    .option("--bg <colour>", "light modules and margin, #rrggbb")
    .option("--shape <shape>", "modules: square, rounded or dots")
    .option("--finder <shape>", "the three corner patterns: square, rounded or dot")
    .option("--margin <modules>", "light margin in modules (2–16)")
    .option("--ecc <level>", "error correction: L, M, Q or H (H whenever there is a logo)")
    .option("--inverted", "allow light modules on a dark ground")
    .option("--no-inverted", "dark modules on a light ground only")
    .option("--logo", "draw your logo in the middle")
    .option("--no-logo", "no logo")
    .option("--logo-size <share>", "the logo's width as a share of the code's (0.1–0.38)")
    .option("--reset", "start from the built-in style (black on white) instead of the current one")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev qr-style set --fg '#1a237e' --shape dots --logo --logo-size 0.3"))
    .action(async ({ reset, json: asJson, margin, logoSize, ...given }: StyleOptions) => {
      const answer = await api(loadSettings(), async (client) => {
        const current = reset ? {} : (await ok(client.GET("/api/qr-style"))).style;
        const numbers = {
          ...(margin !== undefined && { margin: Number(margin) }),
          ...(logoSize !== undefined && { logoSize: Number(logoSize) }),
        };
        if (Object.values(numbers).some(Number.isNaN)) throw usageError("--margin and --logo-size are numbers");
        // Fields as typed (an unknown shape, say): the server's words say what is wrong.
        const body = { ...current, ...given, ...numbers } as Schemas["QrStyle"];
        return ok(client.PUT("/api/qr-style", { body }));
      });
      show(answer, asJson);
    });

  qrStyle
    .command("logo")
    .description("Upload the logo (JPEG, PNG or WebP); kept as a PNG of at most 512 px, transparency kept")
    .argument("<file>", "the image file")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev qr-style logo brand.png && linkprev qr-style set --logo"))
    .action(async (file: string, options: { json?: boolean }) => {
      const form = new FormData();
      form.append("logo", new File([readFileSync(file)], file.split("/").pop()!));
      const answer = await api(loadSettings(), (client) =>
        ok(client.POST("/api/qr-style/logo", { body: multipart<{ logo: unknown }>(form) })),
      );
      show(answer, options.json);
    });

  qrStyle
    .command("remove-logo")
    .description("Remove the logo: styles that ask for it are drawn without one")
    .action(async () => {
      await api(loadSettings(), (client) => ok(client.DELETE("/api/qr-style/logo")));
      out("Logo removed");
    });
}
