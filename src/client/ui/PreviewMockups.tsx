// The editor's live preview: the card as written, and one mockup per platform drawn as that platform shows it in
// 2024–2026 (docs/decisions/0013; the mockups in src/client/ui/PlatformMockups.tsx). Every cut, shape and image
// threshold comes from src/previews/platforms.ts; a mockup shows nothing the platform does not (X and LinkedIn no
// description, iMessage none either). Each draws the variant the server sends it (src/previews/variants.ts): X its
// 2:1 image and title override, WhatsApp the square image and description override, Telegram the square image,
// everyone else the wide image and the link's own text.
import { useState, type KeyboardEvent } from "react";
import type { LintWarning } from "../../previews/lint.ts";
import { MOCKUP_PLATFORMS, PLATFORMS, type PlatformId } from "../../previews/platforms.ts";
import { LintList } from "./LintList.tsx";
import { MOCKUPS, type CardText } from "./PlatformMockups.tsx";

export type { CardText, PreviewImage } from "./PlatformMockups.tsx";

type MockupTab = "card" | PlatformId;
const MOCKUP_TABS: readonly MockupTab[] = ["card", ...MOCKUP_PLATFORMS];

/** The card as written: every field in full, and the short URL people share. */
function Card({ title, description, host, shortUrl, image }: CardText) {
  return (
    <div className="overflow-hidden rounded-md border border-gray-200 bg-white">
      <div className="relative aspect-[1200/630] bg-gray-100">
        {image ? (
          <img
            src={image.src}
            alt=""
            className="h-full w-full object-cover"
            style={{ objectPosition: image.position }}
            data-testid="preview-image"
          />
        ) : (
          <div className="flex h-full items-center justify-center text-sm text-gray-600">1200 × 630</div>
        )}
      </div>
      <div className="p-3">
        <p className="text-xs uppercase text-gray-600">{host}</p>
        <p className="font-semibold break-words" data-testid="preview-title">
          {title}
        </p>
        <p className="text-sm break-words text-gray-600" data-testid="preview-description">
          {description}
        </p>
      </div>
      <p className="border-t border-gray-100 px-3 py-2 text-xs break-all text-gray-600" data-testid="preview-url">
        {shortUrl}
      </p>
    </div>
  );
}

const tabName = (tab: MockupTab) => (tab === "card" ? "Card" : PLATFORMS[tab].name);

/** The preview tabs (a tablist: arrows, Home and End move between them) and the chosen tab with its warnings. */
export function PreviewMockups({ card, warnings }: { card: CardText; warnings: LintWarning[] }) {
  const [tab, setTab] = useState<MockupTab>("card");
  const concerning = (v: MockupTab) => (v === "card" ? warnings : warnings.filter((w) => w.platforms.includes(v)));
  const choose = (next: MockupTab) => {
    setTab(next);
    document.getElementById(`preview-tab-${next}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = MOCKUP_TABS.indexOf(tab);
    const to = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: MOCKUP_TABS.length - 1,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    choose(MOCKUP_TABS[(to + MOCKUP_TABS.length) % MOCKUP_TABS.length]!);
  };
  const here = concerning(tab);
  const Mockup = tab === "card" ? Card : MOCKUPS[tab]!;
  return (
    <>
      <div role="tablist" aria-label="Preview as" className="mt-1 mb-3 flex flex-wrap gap-1" onKeyDown={onKeyDown}>
        {MOCKUP_TABS.map((v) => {
          const selected = v === tab;
          const count = concerning(v).length;
          return (
            <button
              key={v}
              id={`preview-tab-${v}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls="preview-panel"
              tabIndex={selected ? 0 : -1}
              onClick={() => setTab(v)}
              className={`rounded-md px-3 py-1 text-sm ${selected ? "bg-gray-900 text-white" : "border border-gray-200"}`}
            >
              {tabName(v)}
              {v !== "card" && count > 0 && (
                <span
                  className={`ml-1 rounded-full px-1.5 text-xs ${selected ? "bg-white text-gray-900" : "bg-amber-100 text-amber-900"}`}
                >
                  {count}
                  <span className="sr-only">{count === 1 ? " warning" : " warnings"}</span>
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div
        id="preview-panel"
        role="tabpanel"
        tabIndex={0}
        aria-labelledby={`preview-tab-${tab}`}
        data-testid={`mockup-${tab}`}
        className="min-w-0"
      >
        {tab !== "card" && (
          <p className="mb-2 text-xs text-gray-600">{`${PLATFORMS[tab].name} shows: ${PLATFORMS[tab].shows}.`}</p>
        )}
        <Mockup {...card} />
        <LintList id="preview-warnings" warnings={here} className="mt-3" />
      </div>
    </>
  );
}
