// The link editor's QR section (issue 52, decision 0067): the code drawn live by the server in the style being
// edited (so what is shown is what downloads, and a style that would not scan shows the server's reason), downloads
// of SVG and PNG at print sizes, the account's logo, and saving the style for this link or as the default.
import { useEffect, useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { QrControls } from "../src/client/ui/qr/QrControls.tsx";
import { unscannable, type QrStyle } from "../src/links/qr-style-model.ts";
import type { LinkJson } from "../src/links/wire.ts";

export type QrStyleEditorProps = {
  link: Pick<LinkJson, "id" | "linkSlug" | "title" | "description" | "targetUrl" | "qrStyle">;
  /** The account's default style, and its logo's size (null: none uploaded). */
  defaultStyle: QrStyle;
  logo: { width: number; height: number } | null;
};

/** PNG sizes for print: 1024 px is 8.7 cm at 300 dpi, 2048 px 17.3 cm. */
const PRINT_SIZES = [1024, 2048];

const queryOf = (style: QrStyle) =>
  new URLSearchParams({
    ...Object.fromEntries(Object.entries(style).map(([key, value]) => [key, String(value)])),
    inverted: style.inverted ? "1" : "0",
    logo: style.logo ? "1" : "0",
  }).toString();

export default function QrStyleEditor({ link, defaultStyle, logo: initialLogo }: QrStyleEditorProps) {
  const [own, setOwn] = useState(link.qrStyle !== null);
  const [style, setStyle] = useState<QrStyle>(link.qrStyle ?? defaultStyle);
  const [logo, setLogo] = useState(initialLogo);
  const [shown, setShown] = useState<{ url: string | null; problem: string | null }>({ url: null, problem: null });
  const [busy, setBusy] = useState(false);
  const drawn = `/api/links/${link.id}/qr?${queryOf(style)}`;

  // Judged here first with the server's own rule (src/links/qr-drawing.ts), so a refused style costs no request; the
  // code itself is the server's drawing, as a data URL (no object URL to revoke while it is shown).
  const refused = unscannable(style);
  useEffect(() => {
    if (refused) return setShown({ url: null, problem: refused });
    let current = true;
    void fetch(`${drawn}&format=svg&size=256`, { credentials: "include" }).then(async (response) => {
      const text = await response.text();
      if (!current) return;
      if (!response.ok) return setShown({ url: null, problem: errorMessage(new Error(text)) });
      setShown({ url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`, problem: null });
    });
    return () => {
      current = false;
    };
  }, [drawn, logo, refused]);

  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      toast({ title: "Saved", description: done });
    } catch (error) {
      toast({ title: "Error", description: errorMessage(error), variant: "destructive" });
    }
    setBusy(false);
  };
  const saveForLink = (qrStyle: QrStyle | null) =>
    run(
      async () => {
        const { title, description, targetUrl } = link;
        await api(`/api/links/by-slug/${encodeURIComponent(link.linkSlug)}`, {
          method: "PUT",
          json: { title, description, targetUrl, qrStyle },
        });
        setOwn(qrStyle !== null);
        if (!qrStyle) setStyle(defaultStyle);
      },
      qrStyle ? "This link's code has its own style." : "This link's code follows your default style.",
    );
  const uploadLogo = (file: File) =>
    run(async () => {
      const form = new FormData();
      form.append("logo", file);
      const answer = await api<QrStyleEditorProps>("/api/qr-style/logo", { method: "POST", body: form });
      setLogo(answer.logo);
      setStyle((s) => ({ ...s, logo: true }));
    }, "Your logo is uploaded.");

  return (
    <section className="mt-8 rounded-md border border-gray-200 p-4" aria-labelledby="qr-heading">
      <h2 id="qr-heading" className="text-xl font-semibold">
        QR code
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        {own ? "This link's own style." : "Your default style."} A scan through the code counts as a visit and a scan.
      </p>
      <div className="mt-4 grid gap-6 sm:grid-cols-[16rem_1fr]">
        <div>
          {shown.problem ? (
            <p role="alert" className="text-sm text-red-700" data-testid="qr-refused">
              {shown.problem}
            </p>
          ) : (
            shown.url && (
              <img src={shown.url} alt="The link's QR code" width={256} height={256} data-testid="qr-preview" />
            )
          )}
          {!shown.problem && (
            <p className="mt-2 flex flex-wrap gap-3 text-sm">
              <a
                href={`${drawn}&format=svg&size=1024`}
                download={`${link.linkSlug}-qr.svg`}
                className="text-indigo-700 underline"
              >
                SVG
              </a>
              {PRINT_SIZES.map((size) => (
                <a
                  key={size}
                  href={`${drawn}&format=png&size=${size}`}
                  download={`${link.linkSlug}-qr-${size}.png`}
                  className="text-indigo-700 underline"
                >
                  {`PNG ${size} px`}
                </a>
              ))}
            </p>
          )}
        </div>
        <div className="space-y-4">
          <QrControls style={style} onStyle={setStyle} hasLogo={logo !== null} />
          <label className="block text-sm font-medium">
            {logo ? `Logo (${logo.width}×${logo.height}): replace it` : "Upload a logo (JPEG, PNG or WebP)"}
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              disabled={busy}
              onChange={(e) => {
                const file = (e.target as HTMLInputElement).files?.[0];
                if (file) void uploadLogo(file);
              }}
              className="mt-1 block text-sm"
            />
          </label>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClass.primary}
              disabled={busy || Boolean(shown.problem)}
              onClick={() => saveForLink(style)}
            >
              Use for this link
            </button>
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={busy || Boolean(shown.problem)}
              onClick={() =>
                run(() => api("/api/qr-style", { method: "PUT", json: style }), "Your default QR style is saved.")
              }
            >
              Save as my default
            </button>
            {own && (
              <button type="button" className={buttonClass.secondary} disabled={busy} onClick={() => saveForLink(null)}>
                Follow my default
              </button>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
