// In the browser: a new version of a link's short URL, told by the island that made it (CardFetches) to the
// islands of the same dashboard row that show or copy the address (ShortAddress, LinkActions).
import { useEffect, useState } from "react";

const EVENT = "linkprev:link-version";
type Announced = { id: number; shortUrl: string };

export function announceVersion(id: number, shortUrl: string): void {
  window.dispatchEvent(new CustomEvent<Announced>(EVENT, { detail: { id, shortUrl } }));
}

/** The link's address to share: the one the page was drawn with, then each new version's. */
export function useShortUrl(id: number, drawn: string): string {
  const [shortUrl, setShortUrl] = useState(drawn);
  useEffect(() => {
    const follow = (event: Event) => {
      const { detail } = event as CustomEvent<Announced>;
      if (detail.id === id) setShortUrl(detail.shortUrl);
    };
    window.addEventListener(EVENT, follow);
    return () => window.removeEventListener(EVENT, follow);
  }, [id]);
  return shortUrl;
}
