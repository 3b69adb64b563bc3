// One mockup per platform, drawn as that platform shows a link in 2024–2026 (src/client/ui/PreviewMockups.tsx shows
// them in tabs; docs/decisions/0013). Every cut, shape and image threshold comes from src/previews/platforms.ts.
import type { ReactNode } from "react";
import { PLATFORMS, truncate, type PlatformId } from "../../previews/platforms.ts";

/**
 * The image as the editor knows it: where to draw it from, when known the source's size, and while the source
 * itself is drawn, the CSS object-position that shows the server's crop of it (src/client/ui/FocalPicker.tsx).
 */
export type PreviewImage = { src: string; width: number | null; height: number | null; position?: string } | null;
export type CardText = {
  title: string;
  description: string;
  host: string;
  shortUrl: string;
  /** The wide rendition (everyone but X, WhatsApp and Telegram). */
  image: PreviewImage;
  square: PreviewImage;
  x: PreviewImage;
  /** The per-platform text overrides; null: the link's own text. */
  xTitle: string | null;
  whatsappDescription: string | null;
};

/** og:site_name as src/go/preview-page.ts sends it (Slack, Discord and Telegram print it). */
const SITE_NAME = "LinkPrev";

const fits = (image: PreviewImage, min: { width: number; height: number } | null) =>
  min === null ||
  image === null ||
  image.width === null ||
  image.height === null ||
  (image.width >= min.width && image.height >= min.height);
/** The platform draws its large card for this image (unknown sizes count as large: an external image). */
const large = (id: PlatformId, image: PreviewImage): image is NonNullable<PreviewImage> =>
  image !== null && fits(image, PLATFORMS[id].largeCardMin);
/** The platform draws the image at all. */
const shown = (id: PlatformId, image: PreviewImage): image is NonNullable<PreviewImage> =>
  image !== null && fits(image, PLATFORMS[id].minImage);

const ratio = (id: PlatformId) => ({ aspectRatio: String(PLATFORMS[id].imageRatio ?? PLATFORMS.facebook.imageRatio) });
/** At most `lines` lines (the platform's documented limit), cut with an ellipsis by the browser. */
const clamp = (lines: number | null) =>
  lines === null
    ? undefined
    : { display: "-webkit-box", WebkitLineClamp: lines, WebkitBoxOrient: "vertical" as const, overflow: "hidden" };

function Img({
  image,
  className,
  style,
}: {
  image: NonNullable<PreviewImage>;
  className: string;
  style?: React.CSSProperties;
}) {
  return (
    <img
      src={image.src}
      alt=""
      className={`object-cover ${className}`}
      style={{ ...style, objectPosition: image.position }}
      data-testid="mockup-image"
    />
  );
}

function Title({
  children,
  className,
  style,
}: {
  children: ReactNode;
  className: string;
  style?: React.CSSProperties;
}) {
  return (
    <p className={className} style={style} data-testid="mockup-title">
      {children}
    </p>
  );
}

function Description({ children, className }: { children: ReactNode; className: string }) {
  return (
    <p className={className} data-testid="mockup-description">
      {children}
    </p>
  );
}

export const MOCKUPS: Record<PlatformId, ((card: CardText) => ReactNode) | undefined> = {
  // summary_large_image: the title over the image, cut; the domain below. No (big enough) image: the `summary` card.
  x: ({ title: ownTitle, xTitle, host, x: image }) => {
    const title = xTitle ?? ownTitle;
    return large("x", image) ? (
      <div>
        <div className="relative overflow-hidden rounded-2xl border border-gray-200">
          <Img image={image} className="block w-full" style={ratio("x")} />
          <Title className="absolute bottom-3 left-3 max-w-[calc(100%-1.5rem)] overflow-hidden rounded bg-black/70 px-1.5 py-0.5 text-xs whitespace-nowrap text-white">
            {truncate(title, PLATFORMS.x.title)}
          </Title>
        </div>
        <p className="mt-1 text-xs text-gray-600">{`From ${host}`}</p>
      </div>
    ) : (
      <div className="flex overflow-hidden rounded-2xl border border-gray-200">
        <div className="aspect-square w-24 shrink-0 border-r border-gray-200 bg-gray-100">
          {shown("x", image) && <Img image={image} className="h-full w-full" />}
        </div>
        <div className="min-w-0 p-3 text-sm">
          <p className="text-gray-600">{host}</p>
          <Title className="break-words">{title}</Title>
        </div>
      </div>
    );
  },
  // Large image above the domain, title and description; under 600×315 a small square image beside them.
  facebook: ({ title, description, host, image }) => {
    const text = (
      <div className="min-w-0 bg-gray-100 p-3">
        <p className="text-xs text-gray-600 uppercase">{host}</p>
        <Title className="font-semibold break-words">{title}</Title>
        <Description className="text-sm break-words text-gray-600">{description}</Description>
      </div>
    );
    return (
      <div className={`overflow-hidden border border-gray-300 ${large("facebook", image) ? "" : "flex"}`}>
        {large("facebook", image) ? (
          <Img image={image} className="block w-full" style={ratio("facebook")} />
        ) : (
          shown("facebook", image) && <Img image={image} className="aspect-square w-24 shrink-0" />
        )}
        {text}
      </div>
    );
  },
  // The feed since 2023–2024: a small thumbnail left of the title and the domain; no description.
  linkedin: ({ title, host, image }) => (
    <div className="flex items-center gap-3 rounded-lg border border-gray-300 bg-white p-2">
      {image && <Img image={image} className="aspect-[128/72] w-32 shrink-0 rounded" />}
      <div className="min-w-0">
        <Title className="text-sm font-semibold break-words">{title}</Title>
        <p className="text-xs text-gray-600">{host}</p>
      </div>
    </div>
  ),
  slack: ({ title, description, image }) => (
    <div className="border-l-4 border-gray-300 pl-3 text-sm">
      <p className="font-semibold text-gray-700">{SITE_NAME}</p>
      <Title className="font-semibold break-words text-blue-700">{title}</Title>
      <Description className="break-words text-gray-800">{description}</Description>
      {image && (
        <Img
          image={image}
          className="mt-2 max-h-48 max-w-full rounded"
          style={image.position ? ratio("slack") : undefined}
        />
      )}
    </div>
  ),
  // Title and description cut by UTF-8 bytes.
  discord: ({ title, description, image }) => (
    <div className="rounded border-l-4 border-gray-500 bg-[#2b2d31] p-3 text-sm text-gray-100">
      <p className="text-xs text-gray-300">{SITE_NAME}</p>
      <Title className="mt-1 font-semibold break-words text-[#00a8fc]">
        {truncate(title, PLATFORMS.discord.title)}
      </Title>
      <Description className="mt-1 break-words">{truncate(description, PLATFORMS.discord.description)}</Description>
      {image && <Img image={image} className="mt-3 block w-full rounded" style={ratio("discord")} />}
    </div>
  ),
  // A bubble: the image (small beside the text under 300 px wide), a bold title of at most two lines, a short
  // description and the domain, above the message (the short URL).
  whatsapp: ({ title, description: ownDescription, whatsappDescription, host, shortUrl, square: image }) => {
    const big = large("whatsapp", image);
    const description = whatsappDescription ?? ownDescription;
    return (
      <div className="max-w-sm rounded-lg bg-[#d9fdd3] p-1 text-sm text-gray-900">
        <div className={`overflow-hidden rounded-md bg-black/5 ${big ? "" : "flex"}`}>
          {image && (
            <Img image={image} className={big ? "block aspect-square w-full" : "aspect-square w-20 shrink-0"} />
          )}
          <div className="min-w-0 p-2">
            <Title className="font-semibold break-words" style={clamp(PLATFORMS.whatsapp.titleLines)}>
              {title}
            </Title>
            <Description className="break-words text-gray-700">
              {truncate(description, PLATFORMS.whatsapp.description)}
            </Description>
            <p className="text-xs text-gray-600">{host}</p>
          </div>
        </div>
        <p className="px-1 pt-1 break-all text-[#00577c] underline">{shortUrl}</p>
      </div>
    );
  },
  telegram: ({ title, description, square: image }) => (
    <div className="max-w-sm rounded-xl border border-gray-200 bg-white p-2 text-sm">
      <div className="border-l-2 border-sky-600 pl-2">
        <p className="font-semibold text-sky-700">{SITE_NAME}</p>
        <Title className="font-semibold break-words">{title}</Title>
        <Description className="break-words">{description}</Description>
        {image && <Img image={image} className="mt-2 block aspect-square w-full rounded" />}
      </div>
    </div>
  ),
  // A large image over the title and the domain; no description.
  imessage: ({ title, host, image }) => (
    <div className="max-w-xs overflow-hidden rounded-2xl bg-gray-200 text-sm">
      {image && <Img image={image} className="block w-full" style={ratio("imessage")} />}
      <div className="p-3">
        <Title className="font-semibold break-words">{title}</Title>
        <p className="text-gray-600">{host}</p>
      </div>
    </div>
  ),
  mastodon: undefined,
  bluesky: undefined,
  pinterest: undefined,
  reddit: undefined,
  skype: undefined,
  teams: undefined,
  apple: undefined,
  google: undefined,
  bing: undefined,
};
